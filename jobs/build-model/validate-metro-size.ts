/**
 * The model card's metro-size section (docs/model.md, "Metro size and transport"): the estimates as the
 * build makes them, a hold-out check (factors estimated on 4 CUs in 5, judged on the fifth), and one
 * household at ZIPs of one region from the largest metro to a small one, through the real geography.
 */
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../src/contract/categories.js';
import type { GeoResolver } from '../../src/geo/types.js';
import type { Profile, SpendingModel } from '../../src/model/types.js';
import { type LogStatePrice, recordMeans } from './build.js';
import type { Household } from './extract-households.js';
import { designInputs, fitModel, SPENDING } from './fit.js';
import { isHeldOut } from './hold-out.js';
import {
  type CategoryMetroSizeEffects,
  estimateMetroSizeEffects,
  METRO_SIZE_CATEGORIES,
  urbanClassOf,
} from './metro-size-effects.js';
import { groupRatios } from './state-effects.js';

const CLASS_LABELS = [
  '1: more than 4 million',
  '2: 1.2–4 million',
  '3: 0.33–1.2 million',
  '4: 125–330 thousand',
  '5: less than 125 thousand',
] as const;

const EXAMPLE_PROFILE: Profile = {
  net_annual_income: 80_000,
  age: 40,
  household_members: 2,
  is_homeowner: false,
};

/** Northeast ZIPs from the largest metro class to the smallest, and one rural ZIP. */
const EXAMPLE_ZIPS: readonly [string, string][] = [
  ['10021', 'New York: Upper East Side'],
  ['11756', 'New York metro: Levittown'],
  ['15222', 'Pittsburgh'],
  ['14604', 'Rochester NY'],
  ['16801', 'State College PA'],
  ['14901', 'Elmira NY'],
  ['12901', 'Plattsburgh NY (micropolitan, rural)'],
];

export interface MetroSizeInputs {
  readonly households: readonly Household[];
  /** The build's fitted means of every category for every household (all households). */
  readonly base: readonly Float64Array[];
  readonly logStatePrice: LogStatePrice;
  readonly model: SpendingModel;
  readonly resolver: GeoResolver;
}

export function metroSizeSection(inputs: MetroSizeInputs): string {
  const effects = estimateMetroSizeEffects(inputs.households, inputs.base);
  return [
    estimatesTable(effects),
    '',
    holdOutTable(inputs.households, inputs.logStatePrice),
    '',
    examplesTable(inputs.model, inputs.resolver),
  ].join('\n');
}

const direction = (d: -1 | 0 | 1) => (d < 0 ? 'falls' : d > 0 ? 'rises' : 'none');

function estimatesTable(effects: readonly CategoryMetroSizeEffects[]): string {
  return [
    `Estimates (urban CU-quarters of 2014; observed / fitted ± CU-clustered SE, shrunk toward 1 by the between-class SD τ; "held" = the shrunk ratio runs against the expected direction, shipped as 1):`,
    '',
    '| category | expected with size | τ | class | CU-quarters | observed / fitted ± SE | shrunk | shipped |',
    '|---|---|--:|---|--:|--:|--:|--:|',
    ...effects.flatMap((e) =>
      e.classes.map(
        (k) =>
          `| ${e.category} | ${direction(e.direction)} | ${e.tau.toFixed(3)} | ${CLASS_LABELS[k.metroSize - 1]} | ${k.households} | ${k.raw.toFixed(3)} ± ${k.se.toFixed(3)} | ${k.shrunk.toFixed(3)} | ${k.factor.toFixed(3)}${k.wrongSign ? ' (held)' : ''} |`,
      ),
    ),
  ].join('\n');
}

/**
 * Refits the model and the factors on the training CUs, then on the held-out urban CU-quarters compares
 * Σ w·y / Σ w·ŷ per class without the factor and with it, and their spread across classes (mean |ln|,
 * weighted by predicted spending).
 */
function holdOutTable(households: readonly Household[], logStatePrice: LogStatePrice): string {
  const train = households.filter((h) => !isHeldOut(h.newid));
  const test = households.filter((h) => isHeldOut(h.newid));
  const fitted = fitModel(train, logStatePrice);
  const testInputs = designInputs(test, logStatePrice);
  const trainBase = SPENDING.map((category) => recordMeans(fitted, train, category));
  const testBase = SPENDING.map((category) => recordMeans(fitted, test, category, testInputs));
  const effects = estimateMetroSizeEffects(train, trainBase);
  const lines = [
    `Hold-out check: model and factors refitted on ${train.length} CU-quarters, judged on the ${test.length} held out (every CU whose FNV-1a hash of the CU id is 0 mod 5; table 3). Per class, held-out observed / predicted ± SE before (fit only) and after (× the training factor); "spread" is the mean |ln(observed / predicted)| over the classes, weighted by predicted spending.`,
    '',
    `| category | ${CLASS_LABELS.map((l) => `class ${l.split(':')[0]}`).join(' | ')} | spread before | spread after |`,
    `|---|${CLASS_LABELS.map(() => '--:|').join('')}--:|--:|`,
  ];
  for (const effect of effects) {
    const c = SPENDING.indexOf(effect.category);
    const factorOf = (h: Household) =>
      effect.classes.find((k) => urbanClassOf(h)?.key === String(k.metroSize))?.factor ?? 1;
    const after = testBase[c]!.map((yHat, i) => yHat * factorOf(test[i]!));
    const before = groupRatios(test, testBase[c]!, c, urbanClassOf);
    const adjusted = groupRatios(test, after, c, urbanClassOf);
    const spread = (ratios: typeof before) => {
      const total = ratios.reduce((a, r) => a + r.predicted, 0);
      return (ratios.reduce((a, r) => a + r.predicted * Math.abs(Math.log(r.ratio)), 0) / total).toFixed(3);
    };
    const cells = before.map(
      (r, k) => `${r.ratio.toFixed(2)} → ${adjusted[k]!.ratio.toFixed(2)} ± ${r.se.toFixed(2)}`,
    );
    lines.push(`| ${effect.category} | ${cells.join(' | ')} | ${spread(before)} | ${spread(adjusted)} |`);
  }
  return lines.join('\n');
}

function examplesTable(model: SpendingModel, resolver: GeoResolver): string {
  const out = new Float64Array(CATEGORY_COUNT);
  const categories = [...METRO_SIZE_CATEGORIES.keys()];
  return [
    `One household, ${JSON.stringify(EXAMPLE_PROFILE)}, at Northeast ZIPs (${model.priceYear} dollars a year; each ZIP also carries its own price parities and rent index):`,
    '',
    `| ZIP | place | class | ${categories.join(' | ')} |`,
    `|---|---|--:|${categories.map(() => '--:|').join('')}`,
    ...EXAMPLE_ZIPS.map(([zip, label]) => {
      const geo = resolver.resolve(zip);
      model.predict(EXAMPLE_PROFILE, geo, out);
      const size = geo.urban === true && geo.metroSize != null ? String(geo.metroSize) : 'rural';
      return `| ${zip} | ${label} | ${size} | ${categories.map((c) => Math.round(out[CATEGORY_INDEX[c]]!).toLocaleString('en-US')).join(' | ')} |`;
    }),
  ].join('\n');
}
