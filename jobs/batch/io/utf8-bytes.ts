/**
 * Text into UTF-8 bytes without a new buffer per string. Output fields are short and nearly always ASCII,
 * where copying code units beats `TextEncoder.encodeInto` (which needs a fresh subarray view per call).
 */
const encoder = new TextEncoder();

/** Writes `text` at `at` (the caller has reserved 3 bytes per UTF-16 unit); returns the new end. */
export function writeUtf8(target: Uint8Array, at: number, text: string): number {
  const count = text.length;
  for (let i = 0; i < count; i++) {
    const unit = text.charCodeAt(i);
    if (unit > 0x7f) return at + encoder.encodeInto(text, target.subarray(at)).written;
    target[at + i] = unit;
  }
  return at + count;
}
