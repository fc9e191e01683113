/** The model card's hold-out: the consumer units every out-of-sample check leaves out of its fit. */

/** The consumer unit of a CU-quarter: its NEWID without the interview digit. */
export const consumerUnit = (newid: string): string => newid.slice(0, -1);

/** Deterministic 1-in-5 hold-out by consumer unit (all interviews of a CU together), FNV-1a of the CU id. */
export function isHeldOut(newid: string): boolean {
  const cu = consumerUnit(newid);
  let hash = 0x811c9dc5;
  for (let i = 0; i < cu.length; i++) hash = Math.imul(hash ^ cu.charCodeAt(i), 0x01000193) >>> 0;
  return hash % 5 === 0;
}
