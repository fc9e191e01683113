/**
 * A small seeded PRNG (sfc32, seeded through splitmix32) so sample files are byte-identical for a seed on
 * every platform and Node version. Independent streams (households, bad rows) come from the same seed, so
 * adding bad rows never changes the clean rows around them.
 */
const TWO_POW_32 = 2 ** 32;

function splitmix32(state: number): [next: number, output: number] {
  const next = (state + 0x9e3779b9) | 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return [next, (z ^ (z >>> 16)) >>> 0];
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** `seed`: a non-negative safe integer; `stream`: which independent sequence of that seed. */
  constructor(seed: number, stream: number) {
    // Absorb the seed's low and high 32-bit words and the stream number, one splitmix step each.
    let state = 0;
    const words: number[] = [];
    for (const input of [seed % TWO_POW_32, Math.floor(seed / TWO_POW_32), stream, 0]) {
      const [next, output] = splitmix32(state ^ input);
      state = next;
      words.push(output);
    }
    [this.a, this.b, this.c, this.d] = words as [number, number, number, number];
    // Discard the first outputs: sfc32 needs a few rounds to decorrelate nearby seeds.
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.uint32() / TWO_POW_32;
  }

  /** Uniform in [low, high). */
  uniform(low: number, high: number): number {
    return low + (high - low) * this.float();
  }

  /** Uniform integer in [low, high]. */
  integer(low: number, high: number): number {
    return low + Math.floor(this.float() * (high - low + 1));
  }

  /** Standard normal (Box–Muller; 1 − u keeps the logarithm finite). */
  normal(): number {
    return Math.sqrt(-2 * Math.log(1 - this.float())) * Math.cos(2 * Math.PI * this.float());
  }

  /** exp(sigma · N(0,1)): a multiplicative jitter with median 1. */
  lognormalFactor(sigma: number): number {
    return Math.exp(sigma * this.normal());
  }
}
