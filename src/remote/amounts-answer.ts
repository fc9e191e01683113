/**
 * Reads the amounts of a budget or model answer (`{"budget": {category: whole dollars, ...}}`) into one
 * value per category, in CATEGORIES order, checked against the contract's response schema
 * (BudgetResponse, ModelResponse): an amount that is not a whole number ≥ 0, or missing, is never read
 * as one. A body that is not JSON at all (a proxy's error page) is not an answer; JSON that the schema
 * refuses is an answer off the contract, with the schema's reasons.
 *
 * A reader of the compact bytes `outlay serve` writes, beside JSON.parse, saved no measurable CPU of the
 * remote job (docs/fast-paths.md), so every answer is parsed and checked the one way.
 */
import { CATEGORIES, type Category } from '../contract/categories.js';
import { valueAt } from '../contract/json-pointer.js';
import { BudgetResponse, ModelResponse } from '../contract/schemas.js';
import { Compile } from '../vendor/typebox.js';

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
  private readonly schema: AnswerSchema;

  constructor(private readonly field: 'budget' | 'model') {
    this.schema = SCHEMAS[field];
  }

  /** The amounts; undefined when the body is not a JSON object; OffContractAnswer when the schema refuses it. */
  read(body: Buffer): Float64Array | OffContractAnswer | undefined {
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
