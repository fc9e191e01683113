/**
 * The model card's rural section (docs/model.md, "Geography", rural places): each category's rural factor
 * as the build estimates it (rural-effects.ts) beside the published 2023 area table's raw contrast, a
 * hold-out check (factors estimated on 4 CUs in 5, judged on the fifth), and one household's total at every
 * rural and urban ZIP of ten states against the documented band.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATEGORY_COUNT, SPENDING_CATEGORY_COUNT } from '../../src/contract/categories.js';
import type { GeoResolver } from '../../src/geo/types.js';
import type { SpendingModel } from '../../src/model/types.js';
import type { Household } from './extract-households.js';
import { SPENDING } from './fit.js';
import { type HeldOutFit, spread } from './held-out-fit.js';
import { CUT_TABLES, type CutTargets } from './published.js';
import {
  median,
  RURAL_BAND_PROFILE,
  RURAL_BAND_STATES,
  RURAL_TOTAL_BAND,
  ruralTotalRatios,
} from './rural-band.js';
import { estimateRuralEffects, type RuralEffects } from './rural-effects.js';
import type { SourceReader } from './sources.js';
import { groupRatios } from './state-effects.js';

export interface RuralInputs {
  readonly households: readonly Household[];
  readonly base: readonly Float64Array[];
  readonly fitted: Parameters<typeof estimateRuralEffects>[1];
  /** The model refitted on the training CUs (the hold-out check's). */
  readonly heldOut: HeldOutFit;
  readonly area: CutTargets;
  /** publishedSpendingRatio. */
  readonly published: Interval;
  readonly model: SpendingModel;
  readonly resolver: GeoResolver;
  /** data/geo/zips.tsv. */
  readonly zipsFile: string;
  /** The calibration population and the shipped model's predictions for it ([category][household]). */
  readonly population: readonly Household[];
  readonly predictions: readonly Float64Array[];
}

export function ruralSection(inputs: RuralInputs): string {
  const effects = estimateRuralEffects(inputs.households, inputs.fitted, inputs.base);
  return [
    estimatesTable(effects, inputs),
    '',
    areaCheck(inputs),
    '',
    holdOutTable(inputs.heldOut),
    '',
    bandTable(inputs, effects),
  ].join('\n');
}

const ratio = (x: number) => x.toFixed(3);

function estimatesTable(effects: RuralEffects, inputs: RuralInputs): string {
  const [rural, urban] = [inputs.area.get('Rural')!, inputs.area.get('Urban')!];
  const means = areaMeans(inputs);
  const { total } = effects;
  const against = (model: number, published: number | undefined) =>
    published === undefined ? 'suppressed' : ratio(model / published);
  return [
    `Estimates (rural CU-quarters of 2014; rural spending over the same households' fitted spending as urban ones ± CU-clustered SE, 95 % interval; ln ratio shrunk toward 0 by the between-category SD τ = ${effects.tau.toFixed(3)}; "held" = the shrunk ratio left the interval and is shipped at its nearer end). All 36 categories pooled: ${ratio(total.raw)} ± ${ratio(total.se)} (${ratio(total.low)}–${ratio(total.high)}). "Published 2023, raw": the area table's rural mean over its urban mean (rural CUs are older, own more and have 5 % less income after taxes), for comparison only. Last two columns, the area table as a check: the shipped model's mean over the calibration population's urban and rural CUs (2023 dollars) over the published mean of the cut.`,
    '',
    '| category | CU-quarters | rural / urban ± SE | 95 % interval | shrunk | shipped | published 2023, raw | model / published: urban | rural |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...effects.categories.map((e, c) => {
      const published =
        rural.get(e.category) === undefined ? undefined : rural.get(e.category)! / urban.get(e.category)!;
      return `| ${e.category} | ${e.households} | ${ratio(e.raw)} ± ${ratio(e.se)} | ${ratio(e.low)}–${ratio(e.high)} | ${ratio(e.shrunk)} | ${ratio(e.factor)}${e.held ? ' (held)' : ''} | ${published === undefined ? 'suppressed' : ratio(published)} | ${against(means[c]![0], urban.get(e.category))} | ${against(means[c]![1], rural.get(e.category))} |`;
    }),
  ].join('\n');
}

/** Per category: the shipped model's mean over the calibration population's urban, and rural, CUs. */
function areaMeans({ population, predictions }: RuralInputs): [number, number][] {
  const sums = SPENDING.map(() => [0, 0, 0, 0]);
  population.forEach((h, i) => {
    if (h.region === 0 || h.weight === 0) return;
    const at = h.urban ? 0 : 2;
    sums.forEach((s, c) => {
      s[at]! += h.weight * predictions[c]![i]!;
      s[at + 1]! += h.weight;
    });
  });
  return sums.map((s) => [s[0]! / s[1]!, s[2]! / s[3]!]);
}

/**
 * The published area table as a check (it is not raked): the model's mean total over the calibration
 * population's urban and rural CUs against the published means, over the categories both cuts publish.
 */
function areaCheck(inputs: RuralInputs): string {
  const { area } = inputs;
  const means = areaMeans(inputs);
  const both = SPENDING.flatMap((c, k) =>
    area.get('Urban')!.has(c) && area.get('Rural')!.has(c) ? [k] : [],
  );
  const [urban, rural] = [0, 1].map((j) => ({
    model: both.reduce((a, k) => a + means[k]![j]!, 0),
    published: both.reduce((a, k) => a + area.get(j === 0 ? 'Urban' : 'Rural')!.get(SPENDING[k]!)!, 0),
  })) as [{ model: number; published: number }, { model: number; published: number }];
  const money = (x: number) => Math.round(x).toLocaleString('en-US');
  const off = (m: { model: number; published: number }) =>
    `${m.model >= m.published ? '+' : '−'}${Math.abs(100 * (m.model / m.published - 1)).toFixed(1)} %`;
  return `Area table, a check (not raked; table 2's area column): over the calibration population (2023 dollars, the categories both cuts publish), the shipped model's mean total is $${money(urban.model)} for urban CUs against the published $${money(urban.published)} (${off(urban)}) and $${money(rural.model)} for rural CUs against $${money(rural.published)} (${off(rural)}); rural over urban ${ratio(rural.model / urban.model)} against the published ${ratio(rural.published / urban.published)}.`;
}

/**
 * Refits the model and the factors on the training CUs, then on the held-out rural CU-quarters compares
 * Σ w·y / Σ w·ŷ per category with the raw training ratio (the fit as is) and with the shipped one, and
 * their spread (mean |ln| over categories, weighted by predicted spending).
 */
function holdOutTable({ train, test, fitted, trainBase, testBase }: HeldOutFit): string {
  const effects = estimateRuralEffects(train, fitted, trainBase);
  const ruralOnly = (h: Household) => (h.region !== 0 && !h.urban ? { key: 'rural', level: 0 } : undefined);
  const rows = SPENDING.map((category, c) => {
    const raw = testBase[c]!;
    const { factor, raw: trained } = effects.categories[c]!;
    const shrunk = raw.map((m, i) => (test[i]!.urban ? m : (m * factor) / trained));
    const [before] = groupRatios(test, raw, c, ruralOnly);
    const [after] = groupRatios(test, shrunk, c, ruralOnly);
    return { category, before: before!, after: after! };
  });
  return [
    `Hold-out check: model and rural factors refitted on ${train.length} CU-quarters, judged on the ${rows[0]!.before.households} rural CU-quarters among the ${test.length} held out (every CU whose FNV-1a hash of the CU id is 0 mod 5; table 3). Held-out observed / predicted ± SE with the training fit's own rural ratio ("raw") and with the training's shrunk factor ("shrunk"); spread over the categories (mean |ln(observed / predicted)|, weighted by predicted spending): raw ${spread(rows.map((r) => r.before)).toFixed(3)}, shrunk ${spread(rows.map((r) => r.after)).toFixed(3)}.`,
    '',
    '| category | raw | shrunk | ± SE |',
    '|---|--:|--:|--:|',
    ...rows.map(
      (r) =>
        `| ${r.category} | ${r.before.ratio.toFixed(2)} | ${r.after.ratio.toFixed(2)} | ${r.before.se.toFixed(2)} |`,
    ),
  ].join('\n');
}

/** A ratio and its 95 % interval. */
interface Interval {
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

/**
 * The published 2023 area table's rural / urban ratio of average annual expenditures over income after
 * taxes, with a 95 % interval from the four cells' published SEs (independent: the covariance of a cut's
 * spending and income, positive, would narrow it).
 */
export function publishedSpendingRatio(source: SourceReader, ceDir: string): Interval {
  const cell = new Map<string, number>();
  for (const row of source.csv(join(ceDir, 'tidy', CUT_TABLES.area))) {
    const item = row.item!.replace(/\s+[a-z]\/$/, '');
    const key = `${item}|${row.cut}|${row.stat}`;
    if (!cell.has(key)) cell.set(key, Number(row.value));
  }
  const get = (item: string, cut: string, stat: string) => {
    const v = cell.get(`${item}|${cut}|${stat}`);
    if (v === undefined || !Number.isFinite(v))
      throw new Error(`${CUT_TABLES.area}: no ${stat} of ${item} (${cut})`);
    return v;
  };
  const items = ['Average annual expenditures', 'Income after taxes'];
  const means = items.map((i) => ['Rural', 'Urban'].map((c) => get(i, c, 'Mean')));
  const rse2 = items.flatMap((i, k) =>
    ['Rural', 'Urban'].map((c, j) => (get(i, c, 'SE') / means[k]![j]!) ** 2),
  );
  const value = means[0]![0]! / means[1]![0]! / (means[0]![1]! / means[1]![1]!);
  const half = Z95 * Math.sqrt(rse2.reduce((a, b) => a + b, 0));
  return { value, low: value * Math.exp(-half), high: value * Math.exp(half) };
}

const Z95 = 1.959963984540054;

function bandTable(inputs: RuralInputs, effects: RuralEffects): string {
  const { model, resolver } = inputs;
  const zipsTsv = readFileSync(inputs.zipsFile, 'utf8');
  const survey = [effects.total, inputs.published];
  const low = Math.min(...survey.map((s) => s.low));
  const high = Math.max(...survey.map((s) => s.high));
  if (RURAL_TOTAL_BAND[0] > low || RURAL_TOTAL_BAND[1] < high)
    throw new Error(
      `RURAL_TOTAL_BAND ${RURAL_TOTAL_BAND.join('–')} no longer holds the survey's ${ratio(low)}–${ratio(high)}`,
    );
  const money = (x: number) => Math.round(x).toLocaleString('en-US');
  const out = new Float64Array(CATEGORY_COUNT);
  const total = (zip: string) => {
    model.predict(RURAL_BAND_PROFILE, resolver.resolve(zip), out);
    return out.slice(0, SPENDING_CATEGORY_COUNT).reduce((a, b) => a + b, 0);
  };
  const [rural, town] = [total(BAND_EXAMPLE[0]), total(BAND_EXAMPLE[1])];
  return [
    `Band: the survey's rural / urban total, 2014 microdata at fixed take-home, age, size, tenure, region and state prices ${ratio(effects.total.raw)} (95 % ${ratio(effects.total.low)}–${ratio(effects.total.high)}); published 2023 spending over income after taxes, rural over urban, ${ratio(inputs.published.value)} (95 % ${ratio(inputs.published.low)}–${ratio(inputs.published.high)}); together ${ratio(low)}–${ratio(high)}; shipped band ${RURAL_TOTAL_BAND[0]}–${RURAL_TOTAL_BAND[1]}.`,
    '',
    `One household, ${JSON.stringify(RURAL_BAND_PROFILE)}: its total (${model.priceYear} dollars a year) at each rural ZIP of a state over the median total of the state's urban ZIPs. ${BAND_EXAMPLE[0]} (Absarokee MT, rural, Billings metro) $${money(rural)} against ${BAND_EXAMPLE[1]} (Billings) $${money(town)}: ${ratio(rural / town)}.`,
    '',
    '| state | urban ZIPs: median total | rural ZIPs | rural / urban: min | median | max |',
    '|---|--:|--:|--:|--:|--:|',
    ...RURAL_BAND_STATES.map((state) => {
      const { urbanMedian, ratios } = ruralTotalRatios(model, resolver, zipsTsv, state);
      const s = [...ratios].sort((a, b) => a - b);
      return `| ${state} | ${money(urbanMedian)} | ${s.length} | ${ratio(s[0]!)} | ${ratio(median(s))} | ${ratio(s[s.length - 1]!)} |`;
    }),
  ].join('\n');
}

/** A rural ZIP of a metro and the metro's principal city. */
const BAND_EXAMPLE = ['59001', '59101'] as const;

export const zipsFileOf = (dataDir: string) => join(dataDir, 'geo', 'zips.tsv');
