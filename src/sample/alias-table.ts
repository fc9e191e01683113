import type { Random } from './random.js';

/** Walker/Vose alias table: O(1) draws of an index with probability proportional to its weight. */
export class AliasTable {
  private readonly probability: Float64Array;
  private readonly alias: Int32Array;

  constructor(weights: readonly number[]) {
    const n = weights.length;
    const total = weights.reduce((sum, w) => sum + w, 0);
    if (n === 0 || !(total > 0)) throw new Error('alias table needs at least one positive weight');
    this.probability = new Float64Array(n);
    this.alias = new Int32Array(n);
    const scaled = weights.map((w) => (w * n) / total);
    const small: number[] = [];
    const large: number[] = [];
    scaled.forEach((p, i) => {
      (p < 1 ? small : large).push(i);
    });
    while (small.length > 0 && large.length > 0) {
      const s = small.pop()!;
      const l = large.pop()!;
      this.probability[s] = scaled[s]!;
      this.alias[s] = l;
      scaled[l] = scaled[l]! + scaled[s]! - 1;
      (scaled[l]! < 1 ? small : large).push(l);
    }
    // Leftovers are 1 up to rounding error.
    for (const i of [...small, ...large]) this.probability[i] = 1;
  }

  draw(random: Random): number {
    const i = Math.floor(random.float() * this.probability.length);
    return random.float() < this.probability[i]! ? i : this.alias[i]!;
  }
}
