/**
 * The model's answer with its ranges (`?ranges=true`, `outlay model --ranges`): per spending category the
 * 25th, 50th and 75th percentile of a year's spending of households like this one, and the effective
 * number of survey households behind them (docs/model.md, "Distributions"). The shapes are defined once
 * here (TypeBox), for the response and the OpenAPI document.
 */
import { CATEGORIES, SPENDING_CATEGORY_COUNT } from '../contract/categories.js';
import { ModelResponse } from '../contract/schemas.js';
import { RANGE_PERCENTILES } from '../model/artifact.js';
import Type, { type Static } from '../vendor/typebox.js';
import { PERIODS_PER_YEAR, type Period } from './period.js';
import { roundHalfAwayFromZero } from './rounding.js';

const SPENDING_CATEGORIES = CATEGORIES.slice(0, SPENDING_CATEGORY_COUNT);

const whole = (description: string) => Type.Integer({ minimum: 0, description });

export const CategoryRange = Type.Object(
  {
    p25: whole('25th percentile, annual, whole dollars.'),
    p50: whole('Median, annual, whole dollars.'),
    p75: whole('75th percentile, annual, whole dollars.'),
  },
  { additionalProperties: false },
);
export type CategoryRange = Static<typeof CategoryRange>;

export const ModelRanges = Type.Object(
  Object.fromEntries(SPENDING_CATEGORIES.map((c) => [c, CategoryRange])),
  {
    additionalProperties: false,
    description:
      "Per spending category, percentiles of a year's spending of households like this one (savings and " +
      'other debt payments have none: the first is a residual, the second is not surveyed).',
  },
);
export type ModelRanges = Static<typeof ModelRanges>;

export const ModelRangesResponse = Type.Object(
  {
    ...ModelResponse.properties,
    ranges: ModelRanges,
    peers: Type.Integer({
      minimum: 0,
      description:
        'Effective number of survey households behind the ranges (Kish: (Σw)² / Σw² of their weights).',
    }),
  },
  { additionalProperties: false },
);
export type ModelRangesResponse = Static<typeof ModelRangesResponse>;

const PERCENTILE_KEYS = RANGE_PERCENTILES.map((p) => `p${p}` as keyof CategoryRange);

/**
 * The ranges object from the model's percentiles ([category][RANGE_PERCENTILES], `SpendingModel.ranges`),
 * annual, whole units (halves away from zero, as the model's amounts).
 */
export function rangesRecord(percentiles: ArrayLike<number>): ModelRanges {
  return Object.fromEntries(
    SPENDING_CATEGORIES.map((category, c) => [
      category,
      Object.fromEntries(
        PERCENTILE_KEYS.map((key, p) => [
          key,
          roundHalfAwayFromZero(percentiles[c * PERCENTILE_KEYS.length + p]!),
        ]),
      ),
    ]),
  ) as ModelRanges;
}

/**
 * Annual ranges per period: each amount divided by the periods in a year, rounded half away from zero
 * (a range is three separate figures, not parts of a total to apportion).
 */
export function rangesForPeriod(annual: ModelRanges, period: Period): ModelRanges {
  const perYear = PERIODS_PER_YEAR[period];
  return Object.fromEntries(
    SPENDING_CATEGORIES.map((category) => [
      category,
      Object.fromEntries(
        PERCENTILE_KEYS.map((key) => [key, roundHalfAwayFromZero(annual[category]![key] / perYear)]),
      ),
    ]),
  ) as ModelRanges;
}
