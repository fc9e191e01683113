/**
 * The model card's table of benchmarks against public standards (docs/model.md, "Benchmarks against public
 * standards"): by household size, the benchmark basis's food-at-home benchmark against USDA Thrifty (the
 * floor it applies) with the model's mean and median behind it, and the IRS national standards' items
 * against the benchmarks of the same categories — all through the engine's own benchmark functions
 * (`peerBenchmarksOf`, `basisBenchmark`), so that the table shows what a score on the benchmark basis
 * counts.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { CATEGORY_INDEX, type Category } from '../../src/contract/categories.js';
import { basisBenchmark } from '../../src/engine/benchmark.js';
import type { LocalEngine } from '../../src/engine/types.js';
import { DEFAULT_MODEL_PATH } from '../../src/model/load.js';
import type { Profile } from '../../src/model/types.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { DEFAULT_BENCHMARK_FLOORS_PATH } from '../../src/runtime/load-engine.js';
import {
  IRS_STANDARDS_PATH,
  IRS_TABLE_PERSONS,
  type IrsItemId,
  type IrsNationalStandards,
  irsItemAnnual,
  readIrsNationalStandards,
} from './irs-standards.js';

/** The reference household: a renter aged 40 in Birmingham, AL, household type not given. */
const PLACE = { zip: '35210', age: 40, is_homeowner: false } as const;
const SIZES = [1, 2, 3, 4, 5, 6, 7, 8] as const;
const TAKE_HOMES = [30_000, 60_000] as const;
/** The IRS items set beside the benchmark of the model category of the same name. */
const IRS_ITEMS: readonly (readonly [IrsItemId, string, Category])[] = [
  ['housekeeping_supplies', 'IRS housekeeping', 'housekeeping_supplies'],
  ['apparel_and_services', 'IRS apparel', 'clothing_items_and_services'],
  ['personal_care', 'IRS personal care', 'personal_care'],
];
/** The families the text names: [members, take-home, household type or undefined]. */
const FAMILIES = [
  [
    'The couple with two children on $60k in Birmingham (`household_type` married_couple)',
    4,
    60_000,
    'married_couple',
  ],
  ['A family of six on $30k there', 6, 30_000, undefined],
] as const;

const FOOD = CATEGORY_INDEX.food_home;
const money = (x: number) => Math.round(x).toLocaleString('en-US');
const percent = (x: number) => `${Math.round(100 * x)}%`;

/** What the benchmark basis counts for one household: food at home, and each IRS item's category. */
interface Benchmarked {
  readonly thrifty: number;
  readonly foodMean: number;
  readonly foodMedian: number;
  readonly foodBenchmark: number;
  /** The benchmark of each IRS_ITEMS category, in that order. */
  readonly items: readonly number[];
}

function benchmarked(engine: LocalEngine, demographics: Profile & { zip: string }): Benchmarked {
  const figures = engine.householdFigures({ demographics });
  if (!figures.ok) throw new Error(`benchmark table: ${JSON.stringify(figures.error)}`);
  const peers = figures.value.modeled;
  const benchmarks = engine.peerBenchmarksOf(demographics);
  const benchmark = (index: number) => basisBenchmark(index, benchmarks, peers)!;
  return {
    thrifty: benchmarks.floor(FOOD),
    foodMean: peers[FOOD]!,
    foodMedian: benchmarks.at(FOOD, 50),
    foodBenchmark: benchmark(FOOD),
    items: IRS_ITEMS.map(([, , category]) => benchmark(CATEGORY_INDEX[category])),
  };
}

/** The generated section: the table by household size, then the two families the text names. */
export function benchmarkStandardsTable(
  engine: LocalEngine,
  standards: IrsNationalStandards = readIrsNationalStandards(),
): string {
  const heads = [
    'members',
    'USDA Thrifty',
    ...TAKE_HOMES.flatMap((net, k) => [
      `${k === 0 ? 'food at home benchmark' : 'benchmark'}, ${thousands(net)}`,
      ...(k === 0 ? ['% of Thrifty'] : []),
      `model mean, ${thousands(net)}`,
      `median, ${thousands(net)}`,
    ]),
    ...IRS_ITEMS.flatMap(([, label]) => [
      label,
      TAKE_HOMES.map((net) => thousands(net))
        .join(' / ')
        .replace(/^/, 'benchmark '),
    ]),
  ];
  const rows = SIZES.map((members) => {
    const [low, high] = TAKE_HOMES.map((net) =>
      benchmarked(engine, { ...PLACE, net_annual_income: net, household_members: members }),
    ) as [Benchmarked, Benchmarked];
    const cells = [
      money(low.thrifty),
      money(low.foodBenchmark),
      percent(low.foodBenchmark / low.thrifty),
      money(low.foodMean),
      money(low.foodMedian),
      money(high.foodBenchmark),
      money(high.foodMean),
      money(high.foodMedian),
      ...IRS_ITEMS.flatMap(([id], j) => [
        money(irsItemAnnual(standards, id, Math.min(members, IRS_TABLE_PERSONS))),
        `${money(low.items[j]!)} / ${money(high.items[j]!)}`,
      ]),
    ];
    return `| ${members} | ${cells.join(' | ')} |`;
  });
  return [
    provenance(),
    '',
    `| ${heads.join(' | ')} |`,
    `|${heads.map(() => '--:').join('|')}|`,
    ...rows,
    '',
    familiesText(engine),
  ].join('\n');
}

const thousands = (net: number) => `$${net / 1000}k`;

export const BENCHMARK_STANDARDS_COMMAND =
  'node bin/outlay.js build-model --validate --only benchmark-standards --ce-dir ../shared/ce --geo-dir ../shared/geo';

/** The command and the sha256 of the committed files the table reads: the model and the two standards. */
function provenance(): string {
  const files = [DEFAULT_MODEL_PATH, DEFAULT_BENCHMARK_FLOORS_PATH, IRS_STANDARDS_PATH].map(
    (path) =>
      `\`${relative(PACKAGE_ROOT, path)}\` (sha256 ${createHash('sha256').update(readFileSync(path)).digest('hex')})`,
  );
  return `Generated by \`${BENCHMARK_STANDARDS_COMMAND}\` from ${files.join(', ')}.`;
}

/** Each family's food-at-home mean, median and benchmark, and what the benchmark would be without the floor. */
function familiesText(engine: LocalEngine): string {
  const families = FAMILIES.map(([label, members, net, type]) => {
    const b = benchmarked(engine, {
      zip: PLACE.zip,
      net_annual_income: net,
      household_members: members,
      ...(type === undefined ? {} : { household_type: type }),
    });
    return { label, b };
  });
  const sentences = families.map(
    ({ label, b }, k) =>
      `${label}: ${k === 0 ? 'food at home mean' : 'mean'} $${money(b.foodMean)}, median $${money(b.foodMedian)}, benchmark $${money(b.foodBenchmark)} = ${Math.round((100 * b.foodBenchmark) / b.thrifty)} % of Thrifty.`,
  );
  // Without the floor a basic's benchmark is the greater of the model's mean and median.
  const means = families.every(({ b }) => b.foodMean >= b.foodMedian);
  const without = families
    .map(({ b }) => Math.round((100 * Math.max(b.foodMean, b.foodMedian)) / b.thrifty))
    .join(' % and ');
  return `${sentences.join(' ')} Without the floor their benchmarks would be ${means ? 'the means' : 'the greater of mean and median'}, ${without} % of Thrifty.`;
}
