/**
 * Reads the amounts of a budget or model answer (`{"budget": {category: whole dollars, ...}}`) into one
 * value per category, in CATEGORIES order, checked against the contract's response schema
 * (BudgetResponse, ModelResponse, through CheckedAnswer): an amount that is not a whole number ≥ 0, or
 * missing, is never read as one.
 *
 * A reader of the compact bytes `outlay serve` writes, beside JSON.parse, saved no measurable CPU of the
 * remote job (docs/fast-paths.md), so every answer is parsed and checked the one way.
 */
import { CATEGORIES, type Category } from '../contract/categories.js';
import { BudgetResponse, ModelResponse } from '../contract/schemas.js';
import { CheckedAnswer, OffContractAnswer } from './checked-answer.js';

export { OffContractAnswer };

const SCHEMAS = { budget: BudgetResponse, model: ModelResponse };

/** The amounts of a record of the 38 categories, in CATEGORIES order. */
export const amountsOf = (record: Readonly<Record<Category, number>>): Float64Array =>
  Float64Array.from(CATEGORIES, (category) => record[category]);

export class AmountsAnswer {
  private readonly answer: CheckedAnswer<typeof BudgetResponse | typeof ModelResponse>;

  constructor(private readonly field: 'budget' | 'model') {
    this.answer = new CheckedAnswer(SCHEMAS[field]);
  }

  /** The amounts; undefined when the body is not a JSON object; OffContractAnswer when the schema refuses it. */
  read(body: Buffer): Float64Array | OffContractAnswer | undefined {
    const answer = this.answer.read(body);
    if (answer === undefined || answer instanceof OffContractAnswer) return answer;
    return amountsOf((answer as Record<string, Record<Category, number>>)[this.field]!);
  }
}
