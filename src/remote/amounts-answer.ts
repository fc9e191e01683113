/**
 * Reads the amounts of a budget or model answer (`{"budget": {category: whole dollars, ...}}`) into one
 * value per category, in CATEGORIES order. Two answers per row made JSON.parse, the body's decoding to a
 * string and the 38-key objects it builds the largest part of the remote job's own CPU and garbage, so the
 * answer `outlay serve` writes (the schema's keys in CATEGORIES order, non-negative integers, no spaces) is
 * read straight from its bytes; any other spelling of the same JSON goes through JSON.parse.
 */
import { CATEGORIES, CATEGORY_COUNT, type Category } from '../contract/categories.js';

/** Digits beyond this many could round in a double; such an answer takes the JSON.parse path. */
const MAX_EXACT_DIGITS = 15;
const DIGIT_0 = 0x30;

export class AmountsAnswer {
  /** The bytes before each amount: `{"budget":{"food_home":`, then `,"food_out":`, ... */
  private readonly keys: Buffer[];
  private readonly end = Buffer.from('}}');

  constructor(private readonly field: 'budget' | 'model') {
    this.keys = CATEGORIES.map((category, i) =>
      Buffer.from(i === 0 ? `{"${field}":{"${category}":` : `,"${category}":`),
    );
  }

  /** The amounts, or undefined when the body is not JSON with the field and every category as a number. */
  read(body: Buffer): Float64Array | undefined {
    return this.readCompact(body) ?? this.readParsed(body);
  }

  private readCompact(body: Buffer): Float64Array | undefined {
    const amounts = new Float64Array(CATEGORY_COUNT);
    let at = 0;
    for (let i = 0; i < CATEGORY_COUNT; i++) {
      const key = this.keys[i]!;
      if (!bytesAt(body, at, key)) return undefined;
      at += key.length;
      const start = at;
      let value = 0;
      for (let digit = body[at]! - DIGIT_0; digit >= 0 && digit <= 9; digit = body[at]! - DIGIT_0) {
        value = value * 10 + digit;
        at++;
      }
      const digits = at - start;
      if (digits === 0 || digits > MAX_EXACT_DIGITS || (digits > 1 && body[start] === DIGIT_0)) {
        return undefined;
      }
      amounts[i] = value;
    }
    return at + this.end.length === body.length && bytesAt(body, at, this.end) ? amounts : undefined;
  }

  private readParsed(body: Buffer): Float64Array | undefined {
    let record: unknown;
    try {
      record = (JSON.parse(body.toString()) as Record<string, unknown> | null)?.[this.field];
    } catch {
      return undefined;
    }
    if (typeof record !== 'object' || record === null) return undefined;
    const amounts = new Float64Array(CATEGORY_COUNT);
    for (let i = 0; i < CATEGORY_COUNT; i++) {
      const value = (record as Record<Category, unknown>)[CATEGORIES[i]!];
      if (typeof value !== 'number') return undefined;
      amounts[i] = value;
    }
    return amounts;
  }
}

/** A plain loop: for keys of 10–40 bytes it is cheaper than a native Buffer.compare call. */
function bytesAt(body: Buffer, at: number, expected: Buffer): boolean {
  if (at + expected.length > body.length) return false;
  for (let i = 0; i < expected.length; i++) if (body[at + i] !== expected[i]) return false;
  return true;
}
