/**
 * The calibration population: the 2014 CE households reweighted to the 2023 population's make-up. The
 * published 2023 cut means are means over 2023's consumer units; averaging the model over the 2014 CUs
 * instead gives each cut table a different implied all-CU level (e.g. the 2014 CUs are younger, so the
 * age table implies less in categories that rise with age; 8 % of 2014 CUs are rural against 19 % under
 * the 2020 Census definition the 2023 area table uses). Raking the survey weights (iterative proportional
 * fitting) to each 2023 table's published CU counts removes that source of conflict between the tables.
 * Income quintiles need no target: they are recomputed as weighted quintiles of the reweighted population.
 * Structure (the GLM fit, the out-of-sample check, the 2014 means) keeps the 2014 survey weights.
 */
import { CUT_NAMES, cutIndex } from './calibrate.js';
import type { Household } from './extract-households.js';
import { type CutDimension, readCutCounts } from './published.js';
import type { SourceReader } from './sources.js';

const DIMENSIONS = [
  'age',
  'tenure',
  'region',
  'area',
  'composition',
] as const satisfies readonly CutDimension[];
const SWEEPS = 200;
/** Stop once every cut's share is within this (relative) of its 2023 share. */
const CONVERGED = 1e-10;

/** Published CU count of every cut column of a dimension's table. */
export type CutCounts = (dimension: CutDimension) => ReadonlyMap<string, number>;

/** The calibration population for the build and its validation: reweightTo2023 with the published counts. */
export function calibrationPopulation(
  source: SourceReader,
  ceDir: string,
  households: readonly Household[],
): Household[] {
  return reweightTo2023(households, (d) => readCutCounts(source, ceDir, d));
}

/** Households with weights raked to the 2023 CU shares; the total weight is kept. Weight 0 stays 0. */
export function reweightTo2023(households: readonly Household[], counts: CutCounts): Household[] {
  const w = Float64Array.from(households, (h) => (h.region > 0 ? h.weight : 0));
  const total = w.reduce((a, b) => a + b, 0);
  // Membership does not depend on the weights for these (discrete) dimensions, only for income quintiles.
  const member = DIMENSIONS.map((d) => cutIndex(households, w, d));
  const shares = DIMENSIONS.map((d) => {
    const byCut = counts(d);
    const published = CUT_NAMES[d].map((cut) => {
      const count = byCut.get(cut);
      if (count === undefined || !(count > 0)) throw new Error(`no 2023 CU count for ${d} cut ${cut}`);
      return count;
    });
    const sum = published.reduce((a, b) => a + b, 0);
    return published.map((c) => c / sum);
  });
  for (let sweep = 0, change = 1; sweep < SWEEPS && change > CONVERGED; sweep++) {
    change = 0;
    DIMENSIONS.forEach((_, d) => {
      const sums = new Float64Array(shares[d]!.length);
      member[d]!.forEach((j, i) => {
        if (j >= 0) sums[j]! += w[i]!;
      });
      const factors = sums.map((s, j) => (shares[d]![j]! * total) / s);
      for (const f of factors) change = Math.max(change, Math.abs(f - 1));
      member[d]!.forEach((j, i) => {
        if (j >= 0) w[i]! *= factors[j]!;
      });
    });
  }
  return households.map((h, i) => (h.region > 0 ? { ...h, weight: w[i]! } : h));
}
