/**
 * Where an index sits among US households: the reference distribution of the main score's index
 * (data/model/score-reference.json, built by jobs/build-model/score-reference.ts) and the percentile
 * look-up in it. The shape is defined once here (TypeBox) and checked when a file is parsed (pure, no I/O).
 */
import Type, { Compile, type Static } from '../vendor/typebox.js';
import { roundHalfAwayFromZero } from './rounding.js';

export const SCORE_REFERENCE_FORMAT = 'outlay-score-reference/1';

/** Weighted quantiles at 0, 1/QUANTILE_STEPS, …, 1: 1,001 values, a tenth of a percentile apart. */
export const QUANTILE_STEPS = 1000;

const quantileTable = () =>
  Type.Array(Type.Number(), { minItems: QUANTILE_STEPS + 1, maxItems: QUANTILE_STEPS + 1 });

export const ScoreReference = Type.Object(
  {
    format: Type.Literal(SCORE_REFERENCE_FORMAT),
    version: Type.String(),
    /** The loaded model's version (semantic version + digest of its bytes) the households were scored by. */
    modelVersion: Type.String(),
    build: Type.Object({
      command: Type.String(),
      /** SHA-256 of each input file, by path relative to the repository. */
      sources: Type.Record(Type.String(), Type.String()),
      notes: Type.Array(Type.String()),
    }),
    population: Type.Object({
      households: Type.Integer({ minimum: 1 }),
      weight: Type.Number({ exclusiveMinimum: 0 }),
    }),
    /** The index's weighted quantiles, non-decreasing, QUANTILE_STEPS + 1 of them. */
    outlayIndex: quantileTable(),
    /** The same for the fair-lending profile's index (age and household type marginalised). */
    fairLendingIndex: quantileTable(),
  },
  { additionalProperties: false },
);
export type ScoreReference = Static<typeof ScoreReference>;

const compiled = Compile(ScoreReference);

/** Checks the parsed JSON of a reference file; `source` names it in the error. */
export function parseScoreReference(json: unknown, source: string): ScoreReference {
  if (!compiled.Check(json)) {
    const [first] = compiled.Errors(json);
    throw new Error(
      `${source} is not an Outlay score reference at '${first?.instancePath ?? ''}': ${first?.message ?? 'unknown error'}`,
    );
  }
  for (const table of ['outlayIndex', 'fairLendingIndex'] as const) {
    const quantiles = json[table];
    for (let i = 1; i < quantiles.length; i++) {
      if (!(quantiles[i]! >= quantiles[i - 1]!)) {
        throw new Error(`${source}: ${table} must be non-decreasing (at position ${i})`);
      }
    }
  }
  return json;
}

/**
 * The percentile of `index` among the reference households, 0.0–100.0 with one decimal: the share of
 * the weight below it, read off the quantile table by linear interpolation between neighbouring
 * quantiles; where several quantiles equal the index (a value many households share), the middle of
 * their run; 0 below the lowest and 100 above the highest.
 */
export function percentileOf(quantiles: readonly number[], index: number): number {
  const last = quantiles.length - 1;
  const first = firstPosition(quantiles, (q) => q >= index);
  if (first > last) return 100;
  let step: number;
  if (quantiles[first] === index) {
    const end = firstPosition(quantiles, (q) => q > index) - 1;
    step = (first + end) / 2;
  } else if (first === 0) {
    return 0;
  } else {
    const below = quantiles[first - 1]!;
    step = first - 1 + (index - below) / (quantiles[first]! - below);
  }
  return roundHalfAwayFromZero((1000 * step) / last) / 10;
}

/**
 * The first position of the non-decreasing `quantiles` where `isPast` holds (it must hold from there on),
 * the table's length when it holds nowhere; by bisection.
 */
function firstPosition(quantiles: readonly number[], isPast: (q: number) => boolean): number {
  let lo = 0;
  let hi = quantiles.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isPast(quantiles[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
