/**
 * The model card's distribution coverage table: on the held-out CUs observed for most of 2014, the share
 * whose actual spending on each category lies between the shipped p25 and p75 (through the model's own
 * `ranges`), beside two contrasts that argue the method: the same ratios pooled over all incomes and
 * tenures, and the same shipped ranges held against single quarters × 4.
 */
import { RANGE_PERCENTILES } from '../../src/model/artifact.js';
import {
  MIN_MONTHS_OBSERVED,
  type ModelView,
  surveyLevels,
  type YearSample,
  yearMeans,
} from './distribution.js';
import type { Household } from './extract-households.js';
import { SPENDING } from './fit.js';
import { isHeldOut } from './hold-out.js';

/** Categories with at least this share of held-out CUs spending on them are the coverage target's. */
const ENOUGH_SPENDERS = 0.75;
/** The target band for the share between p25 and p75 (ideal 50 %). */
const TARGET = [0.45, 0.55] as const;
const P25 = RANGE_PERCENTILES.indexOf(25);
const P75 = RANGE_PERCENTILES.indexOf(75);

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** Weighted share of `households` for which `inside` holds. */
function share(households: readonly Household[], inside: (h: Household, i: number) => boolean): number {
  let hit = 0;
  let total = 0;
  households.forEach((h, i) => {
    total += h.weight;
    if (inside(h, i)) hit += h.weight;
  });
  return hit / total;
}

/** Per category, the training years' weighted p25 and p75 of the ratio actual / (level × mean), all pooled. */
function pooledBands(years: readonly Household[], means: readonly Float64Array[], levels: Float64Array) {
  return SPENDING.map((_, c) => {
    const rows = years
      .map((h, i) => ({ h, ratio: h.spending[c]! / (levels[c]! * means[i]![c]!) }))
      .filter(({ h }) => !isHeldOut(h.newid))
      .sort((a, b) => a.ratio - b.ratio);
    const total = rows.reduce((sum, { h }) => sum + h.weight, 0);
    const at = (p: number) => {
      let cumulative = 0;
      for (const { h, ratio } of rows) {
        cumulative += h.weight;
        if (cumulative >= p * total) return ratio;
      }
      return rows[rows.length - 1]!.ratio;
    };
    return [at(0.25), at(0.75)] as const;
  });
}

export function distributionCoverageTable(view: ModelView, sample: YearSample): string {
  const { years, quarters } = sample;
  const means = years.map((h) => yearMeans(view, h, true));
  const levels = surveyLevels(years, means);
  const pooled = pooledBands(years, means, levels);
  const test = years.flatMap((h, i) => (isHeldOut(h.newid) ? [i] : []));
  const ranges = new Float64Array(SPENDING.length * RANGE_PERCENTILES.length);
  const bands = new Map<number, Float64Array>();
  const peers = test.map((i) => {
    const h = years[i]!;
    const count = view.model.ranges(
      { net_annual_income: h.takeHome * view.incomeScale, is_homeowner: h.isHomeowner },
      means[i]!,
      ranges,
    );
    // On the survey's level: the ratios were fitted against level × mean.
    bands.set(
      i,
      ranges.map((x, at) => x * levels[Math.floor(at / RANGE_PERCENTILES.length)]!),
    );
    return count;
  });
  const held = test.map((i) => years[i]!);
  const cells = cellsOf(held);
  const heldQuarters = test.flatMap((i) => quarters[i]!.map((q) => ({ q, i })));
  const lines = [
    `Held out: ${held.length} of ${years.length} CUs observed ${MIN_MONTHS_OBSERVED}–12 months of 2014 (the model card's hold-out, every CU whose FNV-1a hash of the CU id is 0 mod 5); survey-weighted shares. Effective households behind their ranges: median ${Math.round(median(peers))}, least ${Math.round(Math.min(...peers))}.`,
    '',
    '| category | spenders | year in [p25, p75] | by cell | pooled ratios | by cell | one quarter × 4 |',
    '|---|--:|--:|--:|--:|--:|--:|',
  ];
  let targeted = 0;
  let onTarget = 0;
  SPENDING.forEach((category, c) => {
    const band = (i: number) => bands.get(i)!.subarray(3 * c, 3 * c + 3);
    const inside = (y: number, i: number) => band(i)[P25]! <= y && y <= band(i)[P75]!;
    const spenders = share(held, (h) => h.spending[c]! > 0);
    const inYear = (h: Household, k: number) => inside(h.spending[c]!, test[k]!);
    const year = share(held, inYear);
    const [lo, hi] = pooled[c]!;
    const inPooled = (h: Household, k: number) => {
      const ratio = h.spending[c]! / (levels[c]! * means[test[k]!]![c]!);
      return lo <= ratio && ratio <= hi;
    };
    const pooledShare = share(held, inPooled);
    const quarterShare = share(
      heldQuarters.map(({ q }) => q),
      (q, k) => inside(q.spending[c]!, heldQuarters[k]!.i),
    );
    const enough = spenders >= ENOUGH_SPENDERS;
    if (enough) {
      targeted++;
      if (year >= TARGET[0] && year <= TARGET[1]) onTarget++;
    }
    lines.push(
      `| ${category}${enough ? '' : ' †'} | ${pct(spenders)} | ${pct(year)} | ${cellRange(held, cells, inYear)} | ${pct(pooledShare)} | ${cellRange(held, cells, inPooled)} | ${pct(quarterShare)} |`,
    );
  });
  lines.splice(
    1,
    0,
    `${onTarget} of the ${targeted} categories with at least ${pct(ENOUGH_SPENDERS)} spenders have ${pct(TARGET[0])}–${pct(TARGET[1])} of held-out years between p25 and p75. † fewer spenders: p25 (and for the rarest p50) is 0, and the CUs at 0 count as inside.`,
  );
  return lines.join('\n');
}

/**
 * Each held-out household's cell: renter or owner × take-home below or above the held-out median, where a
 * method that ignores income and tenure would cover too many in some cells and too few in others.
 */
function cellsOf(held: readonly Household[]): number[] {
  const middle = median(held.map((h) => h.takeHome));
  return held.map((h) => (h.isHomeowner ? 2 : 0) + (h.takeHome < middle ? 0 : 1));
}

/** The lowest and highest share inside over the four cells. */
function cellRange(
  held: readonly Household[],
  cells: readonly number[],
  inside: (h: Household, k: number) => boolean,
): string {
  const shares = [0, 1, 2, 3].map((cell) => {
    const members = held.flatMap((h, k) => (cells[k] === cell ? [{ h, k }] : []));
    return share(
      members.map(({ h }) => h),
      (_, j) => inside(members[j]!.h, members[j]!.k),
    );
  });
  return `${pct(Math.min(...shares))}–${pct(Math.max(...shares))}`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
