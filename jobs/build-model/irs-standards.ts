/**
 * The IRS Collection Financial Standards' national standards for food, clothing and other items
 * (data/reference/irs-national-standards.json: figures, effective date, sources, licence) and what the
 * model predicts for the same five items, for the model card's household-size comparison. The file's
 * shape is defined once here (TypeBox) and checked when it is read.
 */
import { join } from 'node:path';
import { CATEGORY_INDEX, type Category } from '../../src/contract/categories.js';
import { DATA_DIR } from '../../src/paths.js';
import Type, { type Static } from '../../src/vendor/typebox.js';
import { annualAtIndex, ReferenceSources, referenceTable } from './reference-data.js';

export const IRS_STANDARDS_PATH = join(DATA_DIR, 'reference', 'irs-national-standards.json');
const FORMAT = 'outlay-irs-national-standards/1';

/** The table's columns: one to four persons; larger households add the amount for each additional person. */
export const IRS_TABLE_PERSONS = 4;

const ITEM_IDS = [
  'food',
  'housekeeping_supplies',
  'apparel_and_services',
  'personal_care',
  'miscellaneous',
] as const;
export type IrsItemId = (typeof ITEM_IDS)[number];

/**
 * The model's categories behind each IRS item, by the IRS definitions: food is food at home and away from
 * home; the other four are the CE categories of the same name. The IRS miscellaneous allowance is for
 * expenses outside every other standard, not CE's miscellaneous; it is set beside it as the nearest.
 */
export const MODEL_CATEGORIES: Readonly<Record<IrsItemId, readonly Category[]>> = {
  food: ['food_home', 'food_out'],
  housekeeping_supplies: ['housekeeping_supplies'],
  apparel_and_services: ['clothing_items_and_services'],
  personal_care: ['personal_care'],
  miscellaneous: ['miscellaneous'],
};

const perPerson = () =>
  Type.Array(Type.Number({ exclusiveMinimum: 0 }), {
    minItems: IRS_TABLE_PERSONS,
    maxItems: IRS_TABLE_PERSONS,
  });

export const IrsNationalStandards = Type.Object(
  {
    format: Type.Literal(FORMAT),
    title: Type.String(),
    effective: Type.String(),
    unit: Type.String(),
    licence: Type.String(),
    sources: ReferenceSources,
    items: Type.Array(
      Type.Object(
        {
          id: Type.Enum(ITEM_IDS, { type: 'string' }),
          label: Type.String(),
          monthly: perPerson(),
        },
        { additionalProperties: false },
      ),
      { minItems: ITEM_IDS.length, maxItems: ITEM_IDS.length },
    ),
    total: perPerson(),
    each_additional_person: Type.Number({ exclusiveMinimum: 0 }),
    /** CPI-U levels that move the table's dollars to the model's price year. */
    price_level: Type.Object(
      {
        series: Type.String(),
        source: Type.String(),
        standards_period: Type.String(),
        standards_index: Type.Number({ exclusiveMinimum: 0 }),
        model_year: Type.Integer(),
        model_index: Type.Number({ exclusiveMinimum: 0 }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type IrsNationalStandards = Static<typeof IrsNationalStandards>;

/**
 * Beyond the shape: every item once, and the items summing to the published total for each size (a
 * transcription check).
 */
function checkItems(json: IrsNationalStandards, source: string): void {
  const missing = ITEM_IDS.filter((id) => !json.items.some((item) => item.id === id));
  if (missing.length > 0) throw new Error(`${source}: items lack ${missing.join(', ')}`);
  json.total.forEach((total, k) => {
    const sum = json.items.reduce((s, item) => s + item.monthly[k]!, 0);
    if (sum !== total)
      throw new Error(`${source}: items for ${k + 1} persons sum to ${sum}, total is ${total}`);
  });
}

const table = referenceTable(IrsNationalStandards, IRS_STANDARDS_PATH, checkItems);
/** Checks the parsed file; `source` names it in the error. */
export const parseIrsNationalStandards = table.parse;
export const readIrsNationalStandards = table.read;

/** The table's monthly dollars as annual dollars of the model's price year. */
function annualAtModelPrices(standards: IrsNationalStandards, monthly: number): number {
  const { model_index, standards_index } = standards.price_level;
  return annualAtIndex(monthly, model_index, standards_index);
}

/** One item's annual allowance for 1–4 persons (the IRS publishes no per-item amount beyond four). */
export function irsItemAnnual(standards: IrsNationalStandards, id: IrsItemId, members: number): number {
  const item = standards.items.find((i) => i.id === id)!;
  const monthly = item.monthly[members - 1];
  if (monthly === undefined) throw new Error(`IRS ${id}: no amount for ${members} persons`);
  return annualAtModelPrices(standards, monthly);
}

/** The five items' annual allowance for any size: above four, the four-person total plus each additional person. */
export function irsTotalAnnual(standards: IrsNationalStandards, members: number): number {
  const monthly =
    members <= IRS_TABLE_PERSONS
      ? standards.total[members - 1]!
      : standards.total[IRS_TABLE_PERSONS - 1]! +
        (members - IRS_TABLE_PERSONS) * standards.each_additional_person;
  return annualAtModelPrices(standards, monthly);
}

/** The model's annual spending on one IRS item, from a prediction indexed by CATEGORY_INDEX. */
export function modelItemAnnual(prediction: ArrayLike<number>, id: IrsItemId): number {
  return MODEL_CATEGORIES[id].reduce((s, c) => s + prediction[CATEGORY_INDEX[c]]!, 0);
}

/** The model's annual spending on all five IRS items. */
export function modelTotalAnnual(prediction: ArrayLike<number>): number {
  return ITEM_IDS.reduce((s, id) => s + modelItemAnnual(prediction, id), 0);
}
