/**
 * The model card's metro-size section (docs/model.md, "Metro size"): the estimates as the
 * build makes them, a hold-out check (factors estimated on 4 CUs in 5, judged on the fifth), and one
 * household at ZIPs of one region from the largest metro to a small one, through the real geography.
 */
import { CATEGORY_COUNT, CATEGORY_INDEX } from '../../src/contract/categories.js';
import type { GeoResolver } from '../../src/geo/types.js';
import type { Profile, SpendingModel } from '../../src/model/types.js';
import type { Household } from './extract-households.js';
import { SPENDING } from './fit.js';
import { type HeldOutFit, spread } from './held-out-fit.js';
import {
  type CategoryMetroSizeEffects,
  estimateMetroSizeEffects,
  TRANSPORT_DIRECTIONS,
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
  /** The model refitted on the training CUs (the hold-out check's). */
  readonly heldOut: HeldOutFit;
  readonly model: SpendingModel;
  readonly resolver: GeoResolver;
}

export function metroSizeSection(inputs: MetroSizeInputs): string {
  const effects = estimateMetroSizeEffects(inputs.households, inputs.base);
  return [
    estimatesTable(effects),
    '',
    holdOutTable(inputs.heldOut),
    '',
    examplesTable(inputs.model, inputs.resolver),
  ].join('\n');
}

const direction = (d: -1 | 0 | 1) => (d < 0 ? 'falls' : d > 0 ? 'rises' : 'none');

function estimatesTable(effects: readonly CategoryMetroSizeEffects[]): string {
  const counts = effects[0]!.classes.map((k) => `class ${k.metroSize} ${k.households}`).join(', ');
  return [
    `Estimates (urban CU-quarters of 2014: ${counts}). Per class: observed / fitted ± CU-clustered SE → the factor shipped, shrunk toward 1 by the between-class SD τ; "held" = the shrunk ratio runs against the expected direction (transport only), shipped as 1; τ = 0: the classes differ no more than their sampling error, every factor 1.`,
    '',
    `| category | expected with size | τ | ${CLASS_LABELS.join(' | ')} |`,
    `|---|---|--:|${CLASS_LABELS.map(() => '--:|').join('')}`,
    ...effects.map(
      (e) =>
        `| ${e.category} | ${direction(e.direction)} | ${e.tau.toFixed(3)} | ${e.classes
          .map(
            (k) =>
              `${k.raw.toFixed(2)} ± ${k.se.toFixed(2)} → ${k.factor.toFixed(3)}${k.wrongSign ? ' (held)' : ''}`,
          )
          .join(' | ')} |`,
    ),
  ].join('\n');
}

/**
 * Refits the model and the factors on the training CUs, then on the held-out urban CU-quarters compares
 * Σ w·y / Σ w·ŷ per class without the factor and with it, and their spread across classes (mean |ln|,
 * weighted by predicted spending).
 */
function holdOutTable({ train, test, trainBase, testBase }: HeldOutFit): string {
  const effects = estimateMetroSizeEffects(train, trainBase);
  const lines = [
    `Hold-out check: model and factors refitted on ${train.length} CU-quarters, judged on the ${test.length} held out (every CU whose FNV-1a hash of the CU id is 0 mod 5; table 3). Per class, held-out observed / predicted ± SE before (fit only) and after (× the training factor); "spread" is the mean |ln(observed / predicted)| over the classes, weighted by predicted spending.`,
    '',
    `| category | ${CLASS_LABELS.map((l) => `class ${l.split(':')[0]}`).join(' | ')} | spread before | spread after |`,
    `|---|${CLASS_LABELS.map(() => '--:|').join('')}--:|--:|`,
  ];
  /** Categories whose held-out spread the factors lower, and raise. */
  const moved: [string[], string[]] = [[], []];
  for (const effect of effects) {
    const c = SPENDING.indexOf(effect.category);
    const factorOf = (h: Household) =>
      effect.classes.find((k) => urbanClassOf(h)?.key === String(k.metroSize))?.factor ?? 1;
    const after = testBase[c]!.map((yHat, i) => yHat * factorOf(test[i]!));
    const before = groupRatios(test, testBase[c]!, c, urbanClassOf);
    const adjusted = groupRatios(test, after, c, urbanClassOf);
    const cells = before.map(
      (r, k) => `${r.ratio.toFixed(2)} → ${adjusted[k]!.ratio.toFixed(2)} ± ${r.se.toFixed(2)}`,
    );
    const [was, is] = [spread(before), spread(adjusted)];
    if (is !== was) moved[is < was ? 0 : 1]!.push(effect.category);
    lines.push(`| ${effect.category} | ${cells.join(' | ')} | ${was.toFixed(3)} | ${is.toFixed(3)} |`);
  }
  lines.splice(
    1,
    0,
    `Of the categories whose training factors are not all 1, the held-out spread falls in ${moved[0]!.length} (${moved[0]!.join(', ')}) and rises in ${moved[1]!.length} (${moved[1]!.join(', ') || 'none'}).`,
  );
  return lines.join('\n');
}

function examplesTable(model: SpendingModel, resolver: GeoResolver): string {
  const out = new Float64Array(CATEGORY_COUNT);
  const categories = [...TRANSPORT_DIRECTIONS.keys()];
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
