/**
 * The model card's ranking table: does `outlay_index` rank the held-out 2014 households whose spending
 * exceeded their take-home, and what in it does the ranking? A true hold-out: the model the held-out
 * CU-quarters are scored with is refitted (fit, calibration, artifact, as the build) on the training CUs
 * alone, and every comparator is fitted on them alone; the shipped model stays fitted on all. Survey-weighted
 * AUC and KS of each score (ranking-scores.ts), overall and within take-home quintiles, and the AUC
 * differences that isolate each part of the index with 95 % paired cluster-bootstrap intervals.
 */
import { parseModelArtifact } from '../../src/model/parse.js';
import type { SpendingModel } from '../../src/model/types.js';
import { aucDifference, type BootstrapOptions } from './bootstrap.js';
import { fitArtifact } from './build.js';
import type { Household } from './extract-households.js';
import { consumerUnit, isHeldOut } from './hold-out.js';
import {
  RATIO_CAP,
  REGRESSION_TERMS,
  rankingScorers,
  type Scored,
  type ScorerName,
  type ScoringInputs,
  sameInputsRegression,
  scoreHeldOut,
} from './ranking-scores.js';
import { weightedQuantiles } from './score-reference.js';
import { separation } from './separation.js';
import type { SourceReader } from './sources.js';

export interface RankingInputs extends ScoringInputs {
  /** The committed extract's CU-quarters (2014 dollars). */
  readonly households: readonly Household[];
  /** The intervals' bootstrap; BOOTSTRAP (the card's) by default. */
  readonly bootstrap?: BootstrapOptions;
}

const QUINTILE_STEPS = 1000;
export const BOOTSTRAP: BootstrapOptions = { replicates: 1000, seed: 20261128, level: 0.95 };

/** The differences the table isolates: [the better-informed score, the one it is set against, what it shows]. */
const COMPARISONS: readonly (readonly [ScorerName, ScorerName, string])[] = [
  ['index', 'takeHome', 'index (payments stated) over take-home alone'],
  ['unstated', 'takeHome', 'the peer model alone: index with nothing stated over take-home alone'],
  ['index', 'residual', 'the peer model over the plain residual (take-home − payments, $)'],
  ['index', 'residualShare', 'the peer model over the plain residual as a share of take-home'],
  ['index', 'regression', 'index (payments stated) over the same-inputs regression'],
];

/**
 * The model the ranking table scores with: the build's fit, calibration and artifact (build.ts
 * `fitArtifact`) run on the training consumer units alone, so that no held-out CU-quarter enters it.
 */
export function trainingModel(
  source: SourceReader,
  dirs: { ceDir: string; geoDir: string; cpiDir: string },
  households: readonly Household[],
): SpendingModel {
  const train = households.filter((h) => !isHeldOut(h.newid));
  const { artifact } = fitArtifact(source, { ...dirs, command: 'validation: training CUs only' }, train);
  return parseModelArtifact(artifact);
}

interface Group {
  readonly label: string;
  readonly members: readonly Scored[];
}

/** All scored households, then their weighted take-home quintiles. */
function takeHomeGroups(scored: readonly Scored[]): Group[] {
  const cuts = weightedQuantiles(
    scored.map((s) => s.h.takeHome),
    scored.map((s) => s.h.weight),
  ).filter((_, k) => k > 0 && k < QUINTILE_STEPS && k % (QUINTILE_STEPS / 5) === 0);
  const quintile = (s: Scored) => cuts.filter((c) => s.h.takeHome > c).length;
  const thousands = (x: number) => `$${Math.round(x / 1000)}k`;
  const bounds = [0, ...cuts];
  return [
    { label: 'all', members: scored },
    ...bounds.map((low, q) => ({
      label: q < 4 ? `Q${q + 1}: ${thousands(low)}–${thousands(cuts[q]!)}` : `Q5: ${thousands(low)} and more`,
      members: scored.filter((s) => quintile(s) === q),
    })),
  ];
}

const fixed = (x: number) => x.toFixed(3);
const signed = (x: number) => (x < 0 ? `−${fixed(-x)}` : `+${fixed(x)}`);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export function rankingTable(inputs: RankingInputs): string {
  const live = inputs.households.filter((h) => h.weight > 0 && h.region > 0);
  const test = live.filter((h) => isHeldOut(h.newid));
  const train = live.filter((h) => !isHeldOut(h.newid) && h.takeHome > 0);
  const { scored, refused } = scoreHeldOut(inputs, test);
  const regression = sameInputsRegression(train, inputs.payments);
  const scorers = rankingScorers(regression.predictor);
  const groups = takeHomeGroups(scored);
  const refusals = [...refused].map(([reason, n]) => `${n} × ${reason}`).join('; ');
  const logit = REGRESSION_TERMS.map((term, j) => {
    const b = regression.beta[j]!;
    return j === 0 ? fixed(b) : `${b < 0 ? '−' : '+'} ${fixed(Math.abs(b))} ${term}`;
  }).join(' ');
  return [
    `Held out: ${scored.length} of ${test.length} held-out CU-quarters (every CU whose FNV-1a hash of the CU id is 0 mod 5) scored${refused.size > 0 ? `; refused by the API's validation: ${refusals}` : ''}. The model they are scored with is refitted on the ${live.length - test.length} training CU-quarters alone (fit, calibration and artifact as the build). Outcome: actual spending on the 36 categories (annualised quarter, housing as paid) above take-home. Same-inputs regression, fitted on the ${train.length} training CU-quarters with positive take-home: logit = ${logit} (ratios capped at ${RATIO_CAP}).`,
    '',
    groupTable(groups),
    '',
    metricTable('AUC', groups, scorers, (r) => r.auc),
    '',
    metricTable('KS', groups, scorers, (r) => r.ks),
    '',
    differenceTable(groups, scorers, inputs.bootstrap ?? BOOTSTRAP),
  ].join('\n');
}

function groupTable(groups: readonly Group[]): string {
  const row = ({ label, members }: Group) => {
    const total = members.reduce((a, s) => a + s.h.weight, 0);
    const share = members.reduce((a, s) => a + (s.overspent ? s.h.weight : 0), 0) / total;
    return `| ${label} | ${members.length} | ${pct(share)} |`;
  };
  return ['| take-home (2014 $) | households | overspent |', '|---|--:|--:|', ...groups.map(row)].join('\n');
}

type Scorers = ReturnType<typeof rankingScorers>;

function metricTable(
  metric: string,
  groups: readonly Group[],
  scorers: Scorers,
  value: (r: { auc: number; ks: number }) => number,
): string {
  const header = `| ${metric} | ${groups.map((g) => g.label.split(':')[0]).join(' | ')} |`;
  const rows = Object.values(scorers).map(({ label, score }) => {
    const cells = groups.map(({ members }) =>
      fixed(
        value(
          separation(
            members.map(score),
            members.map((s) => s.overspent),
            members.map((s) => s.h.weight),
          ),
        ),
      ),
    );
    return `| ${label} | ${cells.join(' | ')} |`;
  });
  return [header, `|---|${groups.map(() => '--:').join('|')}|`, ...rows].join('\n');
}

function differenceTable(groups: readonly Group[], scorers: Scorers, bootstrap: BootstrapOptions): string {
  const header = `| AUC difference (95 % interval) | ${groups.map((g) => g.label.split(':')[0]).join(' | ')} |`;
  const rows = COMPARISONS.map(([better, baseline, label]) => {
    const cells = groups.map(({ members }) => {
      const d = aucDifference(
        {
          a: members.map(scorers[better].score),
          b: members.map(scorers[baseline].score),
          outcomes: members.map((s) => s.overspent),
          weights: members.map((s) => s.h.weight),
          clusters: members.map((s) => consumerUnit(s.h.newid)),
        },
        bootstrap,
      );
      return `${signed(d.estimate)} (${signed(d.low)} to ${signed(d.high)})`;
    });
    return `| ${label} | ${cells.join(' | ')} |`;
  });
  return [header, `|---|${groups.map(() => '--:').join('|')}|`, ...rows].join('\n');
}
