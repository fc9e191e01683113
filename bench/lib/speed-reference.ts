/**
 * The machine's speed at the moment, for reading a figure beside others: a fixed loop of table reads and
 * floating-point products shaped like the model's category loop, timed in CPU ns per pass. On the VMs
 * this project is measured on, the same code runs up to a third slower from one minute to the next;
 * figures taken at different reference readings differ by about as much.
 */
const CATEGORIES = 36;
const PASSES = 2_000_000;

const table = Float64Array.from({ length: 64 * CATEGORIES * 2 }, (_, i) => 1 + ((i * 7919) % 1000) / 1000);
const out = new Float64Array(CATEGORIES).fill(1);

function pass(row: number, fraction: number): number {
  const at = row * CATEGORIES * 2;
  let total = 0;
  for (let c = 0; c < CATEGORIES; c++) {
    const value = out[c]! * 0.5 + (table[at + 2 * c]! + fraction * table[at + 2 * c + 1]!);
    out[c] = value * 0.5;
    total += value;
  }
  return total;
}

/**
 * The warm-up, in wall time: the optimizing compiler works beside the running loop, and a fixed number of
 * passes right after a process starts measured the loop half-compiled (a third slower than at the end).
 */
const WARMUP_MS = 250;

/** CPU ns per pass over the 36 categories, after a warm-up. */
export function speedReferenceNs(): number {
  let sink = 0;
  const warm = performance.now() + WARMUP_MS;
  for (let i = 0; performance.now() < warm; i++) sink += pass(i & 63, 0.25);
  const started = process.cpuUsage();
  for (let i = 0; i < PASSES; i++) sink += pass(i & 63, 0.25);
  const cpu = process.cpuUsage(started);
  if (Number.isNaN(sink)) throw new Error('speed reference: the loop produced NaN');
  return ((cpu.user + cpu.system) * 1000) / PASSES;
}
