/**
 * The IRS national standards for food, clothing and other items (data/reference/irs-national-standards.json,
 * jobs/build-model/irs-standards.ts) and the model card's comparison table (jobs/build-model/validate-size.ts).
 *
 * Golden values: the IRS table effective 2026-06-29 as the US Trustee Program republished it for cases
 * filed on or after 2026-07-15 (justice.gov/ust/eo/bapcpa/20260715/bci_data/national_expense_standards):
 * totals $867, $1,558, $1,857, $2,176 a month for 1–4 persons and $397 for each additional person; food
 * $496 for one person. Annual 2025 dollars = monthly × 12 × 321.943 / 327.417 (CPI-U all items, 2025
 * annual average over the January–March 2026 average), worked by hand: 867 → 10,230.06;
 * 2,176 → 25,675.44; 2,176 + 397 → 30,359.79; food 496 → 5,852.49.
 */
import { describe, expect, it } from 'vitest';
import {
  type IrsNationalStandards,
  irsItemAnnual,
  irsTotalAnnual,
  modelItemAnnual,
  modelTotalAnnual,
  parseIrsNationalStandards,
  readIrsNationalStandards,
} from '../../../jobs/build-model/irs-standards.js';
import { irsStandardsTables, type Predict } from '../../../jobs/build-model/validate-size.js';
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../../src/contract/categories.js';

const standards = readIrsNationalStandards();
const copy = (): IrsNationalStandards => structuredClone(standards);

/** A model spending $100 × members on every category, whatever the take-home. */
const proportional: Predict = (_net, members) => new Float64Array(CATEGORY_COUNT).fill(100 * members);

describe('readIrsNationalStandards', () => {
  it('the committed file holds the published totals and additional-person amount', () => {
    expect(standards.total).toEqual([867, 1558, 1857, 2176]);
    expect(standards.each_additional_person).toBe(397);
    expect(standards.items.find((item) => item.id === 'food')?.monthly[0]).toBe(496);
  });
});

describe('parseIrsNationalStandards', () => {
  it('items that do not sum to the total: refused, naming the size', () => {
    const broken = copy();
    broken.items[1]!.monthly[2]! += 1;
    expect(() => parseIrsNationalStandards(broken, 'irs.json')).toThrow(
      'irs.json: items for 3 persons sum to 1858, total is 1857',
    );
  });

  it('an item missing: refused, naming it', () => {
    const broken = copy();
    broken.items[4]!.id = 'food';
    expect(() => parseIrsNationalStandards(broken, 'irs.json')).toThrow('irs.json: items lack miscellaneous');
  });

  it('a price level for another year than the model: refused', () => {
    const broken = copy();
    broken.price_level.model_year = 2024;
    expect(() => parseIrsNationalStandards(broken, 'irs.json')).toThrow(
      'price_level.model_year 2024 is not 2025',
    );
  });

  it('an item the comparison does not know: refused at its path', () => {
    const broken = copy() as unknown as { items: { id: string }[] };
    broken.items[0]!.id = 'rent';
    expect(() => parseIrsNationalStandards(broken, 'irs.json')).toThrow("irs.json at '/items/0/id'");
  });

  it('a fifth size column: refused at its path', () => {
    const broken = copy();
    broken.total.push(2500);
    expect(() => parseIrsNationalStandards(broken, 'irs.json')).toThrow("irs.json at '/total'");
  });
});

describe('IRS amounts at model prices', () => {
  it('a size of the table: monthly × 12 in 2025 dollars', () => {
    expect(irsTotalAnnual(standards, 1)).toBeCloseTo(10_230.06, 2);
    expect(irsTotalAnnual(standards, 4)).toBeCloseTo(25_675.44, 2);
    expect(irsItemAnnual(standards, 'food', 1)).toBeCloseTo(5_852.49, 2);
  });

  it('five persons: the four-person total plus one additional person', () => {
    expect(irsTotalAnnual(standards, 5)).toBeCloseTo(30_359.79, 2);
  });

  it('one item beyond four persons: refused, the IRS publishes no such amount', () => {
    expect(() => irsItemAnnual(standards, 'food', 5)).toThrow('IRS food: no amount for 5 persons');
  });
});

describe('model spending on the IRS items', () => {
  it('food is food at home plus food away; all five sum six categories', () => {
    const prediction = new Float64Array(CATEGORY_COUNT).fill(1);
    prediction[CATEGORY_INDEX.food_home] = 3_000;
    prediction[CATEGORY_INDEX.food_out] = 2_000;
    expect(modelItemAnnual(prediction, 'food')).toBe(5_000);
    expect(modelItemAnnual(prediction, 'apparel_and_services')).toBe(1);
    expect(modelTotalAnnual(prediction)).toBe(5_004);
  });
});

describe('irsStandardsTables', () => {
  const table = irsStandardsTables(standards, proportional);

  it('a model proportional to size: four persons cost 4 times one, against the IRS 2.51', () => {
    expect(table).toContain('Four persons against one: IRS 2.51; model 4.00 at $30k, 4.00 at $60k.');
    expect(table).toContain('| all five | 4 | 25,675 | 2,400 | 9% | 2,400 | 9% | 2.51 | 4.00 | 4.00 |');
  });

  it('beyond four persons only the total, from the additional-person amount', () => {
    expect(table).toContain('| all five | 5 | 30,360 | 3,000 | 10% | 3,000 | 10% | 2.97 | 5.00 | 5.00 |');
    expect(table).not.toMatch(/\| Food \| 5 \|/);
  });

  it('each item for one to four persons, labelled as published', () => {
    expect(table).toContain('| Food | 1 | 5,852 | 200 | 3% | 200 | 3% | 1.00 | 1.00 | 1.00 |');
    expect(table.match(/^\| (?!all five)[A-Z][^|]* \| [1-4] \|/gm)).toHaveLength(20);
  });
});
