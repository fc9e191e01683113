/**
 * Reads the amounts of a budget or model answer (`{"budget": {category: whole dollars, ...}}`) into one
 * value per category, in CATEGORIES order, checked against the contract's response schema
 * (BudgetResponse, ModelResponse): an amount that is not a whole number ≥ 0, or missing, is never read
 * as one. A body that is not JSON at all (a proxy's error page) is not an answer; JSON that the schema
 * refuses is an answer off the contract, with the schema's reasons.
 *
 * Fast path (docs/fast-paths.md): the answer `outlay serve` writes (the schema's keys in CATEGORIES order,
 * digits only, no spaces) is read straight from its bytes; it accepts a subset of what the schema accepts
 * (at most 15 digits, so every value is a safe whole number ≥ 0), which test/remote/amounts-answer.test.ts
 * checks against the schema over generated answers. Any other spelling goes through JSON.parse and the
 * schema's compiled check.
 */
import { CATEGORIES, CATEGORY_COUNT, type Category } from '../contract/categories.js';
import { valueAt } from '../contract/json-pointer.js';
import { BudgetResponse, ModelResponse } from '../contract/schemas.js';
import { Compile } from '../vendor/typebox.js';

/** Digits beyond this many could round in a double; such an answer takes the JSON.parse path. */
const MAX_EXACT_DIGITS = 15;
const DIGIT_0 = 0x30;

interface AnswerSchema {
  Check(value: unknown): boolean;
  Errors(value: unknown): unknown;
}
const SCHEMAS: Record<'budget' | 'model', AnswerSchema> = {
  budget: Compile(BudgetResponse),
  model: Compile(ModelResponse),
};

/** A JSON answer the response schema refuses: what is wrong with it, each naming the field. */
export class OffContractAnswer {
  constructor(readonly problems: readonly string[]) {}
}

interface RawError {
  readonly instancePath: string;
  readonly message: string;
}

export class AmountsAnswer {
  /** The bytes before each amount: `{"budget":{"food_home":`, then `,"food_out":`, ... */
  private readonly keys: Buffer[];
  private readonly end = Buffer.from('}}');
  private readonly schema: AnswerSchema;

  constructor(private readonly field: 'budget' | 'model') {
    this.keys = CATEGORIES.map((category, i) =>
      Buffer.from(i === 0 ? `{"${field}":{"${category}":` : `,"${category}":`),
    );
    this.schema = SCHEMAS[field];
  }

  /** The amounts; undefined when the body is not a JSON object; OffContractAnswer when the schema refuses it. */
  read(body: Buffer): Float64Array | OffContractAnswer | undefined {
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

  private readParsed(body: Buffer): Float64Array | OffContractAnswer | undefined {
    let answer: unknown;
    try {
      answer = JSON.parse(body.toString());
    } catch {
      return undefined;
    }
    if (typeof answer !== 'object' || answer === null) return undefined;
    if (!this.schema.Check(answer)) {
      return new OffContractAnswer(
        (this.schema.Errors(answer) as RawError[]).map(
          (error) => `${error.instancePath || '(the answer)'} ${error.message}${shownValue(answer, error)}`,
        ),
      );
    }
    const record = (answer as Record<string, Record<Category, number>>)[this.field]!;
    return Float64Array.from(CATEGORIES, (category) => record[category]);
  }
}

/** The refused value, when it is a number or text: ` (is 1234.56)`. */
function shownValue(answer: unknown, error: RawError): string {
  const value = valueAt(answer, error.instancePath);
  return typeof value === 'number' || typeof value === 'string' ? ` (is ${JSON.stringify(value)})` : '';
}

/** A plain loop: for keys of 10–40 bytes it is cheaper than a native Buffer.compare call. */
function bytesAt(body: Buffer, at: number, expected: Buffer): boolean {
  if (at + expected.length > body.length) return false;
  for (let i = 0; i < expected.length; i++) if (body[at + i] !== expected[i]) return false;
  return true;
}
