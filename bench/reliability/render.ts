/** docs/reliability.md from the figures the suites recorded: one section per suite, then the totals. */
import type { Machine } from '../lib/machine.js';
import type {
  AuthFigures,
  BatchInputFigures,
  CrashResumeFigures,
  FuzzFigures,
  LoadFigures,
  LoadPhaseFigures,
  ReliabilityFigures,
  RemoteFaultFigures,
  Tally,
} from './figures.js';

export interface RunInfo {
  readonly machine: Machine;
  readonly command: string;
  readonly passed: boolean;
  readonly wallSeconds: number;
  readonly loadSeconds: number;
}

type Recorded = { readonly [S in keyof ReliabilityFigures]?: ReliabilityFigures[S] };

const MiB = 2 ** 20;
const number = (value: number) => value.toLocaleString('en-US');
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) =>
    `| ${cells.map((cell) => String(cell).replaceAll('|', '\\|').replaceAll('\n', ' ')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const tally = (counts: Tally) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, n]) => `${name}: ${number(n)}`)
    .join(', ');

function mergeTallies(tallies: readonly Tally[]): Tally {
  const merged: Tally = {};
  for (const counts of tallies)
    for (const [name, n] of Object.entries(counts)) merged[name] = (merged[name] ?? 0) + n;
  return merged;
}

const missing = (suite: string) => `_No figures: the ${suite} suite did not finish; see the test output._`;

function fuzzSection(f: FuzzFigures | undefined): string {
  if (f === undefined) return missing('fuzz');
  const endpoints = Object.entries(f.endpoints);
  const serverErrors = sum(endpoints.map(([, e]) => e.statuses['500'] ?? 0));
  return [
    `Seed ${f.seed} (\`OUTLAY_FUZZ_SEED\`). Bodies are raw bytes from fast-check arbitraries (test/reliability/support/fuzz-bodies.ts), sent over 4 keep-alive connections to the real server on 127.0.0.1; every 20th carries a bad key and every 50th goes to an unknown path.`,
    '',
    table(
      ['endpoint', 'bodies', 'statuses', '200s checked against the contract invariants'],
      endpoints.map(([path, e]) => [
        `\`${path}\``,
        number(e.bodies),
        tally(e.statuses),
        number(e.invariantsChecked),
      ]),
    ),
    '',
    `Body kinds sent: ${tally(mergeTallies(endpoints.map(([, e]) => e.bodyKinds)))}.`,
    '',
    table(
      ['figure', 'value'],
      [
        ['bodies tried', number(sum(endpoints.map(([, e]) => e.bodies)))],
        ['answers outside the contract', number(f.unexpected)],
        ['500 answers', number(serverErrors)],
        ['error lines in the server log', number(f.serverErrorsLogged)],
        ['crashes (server not answering /healthz afterwards)', number(f.crashes)],
        [
          'heap after GC, after the first 1,000 → after the last',
          `${mib(f.heapAfterGcBytes.first)} → ${mib(f.heapAfterGcBytes.last)}`,
        ],
        ['RSS after GC, same points', `${mib(f.rssBytes.first)} → ${mib(f.rssBytes.last)}`],
        [
          `rate limit: ${f.rateLimit.sent} requests at once from a key limited to 3/min`,
          tally(f.rateLimit.statuses),
        ],
      ],
    ),
  ].join('\n');
}

function authSection(f: AuthFigures | undefined): string {
  if (f === undefined) return missing('auth');
  const byKey = new Map<string, Tally>();
  for (const { key, status } of f.rejections) {
    const counts = byKey.get(key) ?? {};
    counts[status] = (counts[status] ?? 0) + 1;
    byKey.set(key, counts);
  }
  return [
    'Keys made with `outlay keys create`, server run as `outlay serve` with its own logger on stdout.',
    '',
    table(
      ['key presented', 'answers'],
      [...byKey].map(([key, counts]) => [key, tally(counts)]),
    ),
    '',
    table(
      ['figure', 'value'],
      [
        ['keys searched for in the keys file (key and its secret body)', number(f.keysSearchedInKeysFile)],
        ['log lines captured', number(f.logLines)],
        ['key strings searched for in the logs', number(f.keysSearchedInLogs)],
        ['key strings found in the logs', number(f.leaks)],
      ],
    ),
  ].join('\n');
}

function batchInputSection(f: BatchInputFigures | undefined): string {
  if (f === undefined) return missing('batch input');
  const cell = (value: number | null) => (value === null ? '–' : number(value));
  return table(
    ['input', 'outcome', 'exit', 'rows in', 'scored', 'rejected', 'message or first reject reason'],
    f.cases.map((c) => [
      c.name,
      c.outcome,
      c.exitCode,
      cell(c.rowsIn),
      cell(c.rowsScored),
      cell(c.rowsRejected),
      c.message.replace(/\/tmp\/[^ :]*\//g, '…/').slice(0, 160),
    ]),
  );
}

function remoteSection(f: RemoteFaultFigures | undefined): string {
  if (f === undefined) return missing('remote faults');
  return [
    table(
      [
        'scenario',
        'rows',
        'scored',
        'rejected',
        'lost',
        'requests',
        'faults injected',
        'scored rows = fault-free run',
        'seconds',
      ],
      f.scenarios.map((s) => [
        s.name,
        number(s.rows),
        number(s.scored),
        number(s.rejected),
        number(s.lost),
        number(s.requests),
        tally(s.faults),
        s.identicalToFaultFree ? 'yes' : '**no**',
        s.seconds,
      ]),
    ),
    '',
    `Faults injected in all: ${tally(mergeTallies(f.scenarios.map((s) => s.faults)))}.`,
  ].join('\n');
}

function crashSection(f: CrashResumeFigures | undefined): string {
  if (f === undefined) return missing('crash and resume');
  return table(
    ['figure', 'value'],
    [
      ['seed (`OUTLAY_RELIABILITY_KILL_SEED`)', f.seed],
      ['rows in the input', number(f.rows)],
      ['SIGKILLs at random moments', number(f.kills)],
      ['… of which after a checkpoint was written', number(f.killsAfterACheckpoint)],
      ['chains (one output directory, killed and resumed until a run completes)', number(f.chains)],
      ['runs in all', number(f.runs)],
      [
        'chains whose final files are byte-identical to an uninterrupted run',
        `${f.identicalOutputs} of ${f.chains}`,
      ],
      ['incomplete files seen under a final name after a kill', number(f.incompleteFilesUnderFinalNames)],
    ],
  );
}

function loadSection(f: LoadFigures | undefined, loadSeconds: number): string {
  if (f === undefined) return missing('load');
  const row = (name: string, p: LoadPhaseFigures) => [
    name,
    p.connections,
    p.seconds,
    number(p.requests),
    number(p.requestsPerSecond),
    p.p50Ms,
    p.p90Ms,
    p.p99Ms,
    tally(p.statuses),
    p.errors,
    p.timeouts,
  ];
  return [
    `\`POST /v1.0/scores/generate\` from autocannon in a separate process; sustained phase ${loadSeconds} s (\`OUTLAY_RELIABILITY_LOAD_SECONDS\`).`,
    '',
    table(
      [
        'phase',
        'connections',
        's',
        'requests',
        'req/s',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'statuses',
        'errors',
        'timeouts',
      ],
      [
        row('capacity', f.capacity),
        row('sustained at capacity', f.sustained),
        row('overload (10× connections)', f.overload),
        row('one key past its limit (600/min)', f.overQuota),
      ],
    ),
  ].join('\n');
}

function totals(figures: Recorded): string {
  const batchRows = figures['batch-input']?.cases.filter((c) => c.rowsIn !== null) ?? [];
  const remote = figures['remote-faults']?.scenarios ?? [];
  const crash = figures['crash-resume'];
  const rowsIn =
    sum(batchRows.map((c) => c.rowsIn ?? 0)) +
    sum(remote.map((s) => s.rows)) +
    (crash === undefined ? 0 : crash.rows * crash.chains);
  const rowsOut =
    sum(batchRows.map((c) => (c.rowsScored ?? 0) + (c.rowsRejected ?? 0))) +
    sum(remote.map((s) => s.scored + s.rejected)) +
    (crash === undefined ? 0 : crash.rows * crash.identicalOutputs);
  const crashes = (figures.fuzz?.crashes ?? 0) + (figures.load?.crashes ?? 0);
  const fuzzBodies = sum(Object.values(figures.fuzz?.endpoints ?? {}).map((e) => e.bodies));
  const faults = sum(remote.flatMap((s) => Object.values(s.faults)));
  return table(
    ['figure', 'value'],
    [
      ['request bodies fuzzed', number(fuzzBodies)],
      ['faults injected into remote runs', number(faults)],
      ['processes killed with SIGKILL and resumed', number(crash?.kills ?? 0)],
      ['rows in (batch input, remote faults, crash and resume)', number(rowsIn)],
      ['rows out (scored + rejected with a reason)', number(rowsOut)],
      ['rows lost', number(rowsIn - rowsOut)],
      ['server crashes', number(crashes)],
      ['load: sustained p99', figures.load === undefined ? '–' : `${figures.load.sustained.p99Ms} ms`],
      ['load: overload timeouts', figures.load === undefined ? '–' : number(figures.load.overload.timeouts)],
      ['load: requests shed with 429/503', figures.load === undefined ? '–' : number(shed(figures.load))],
    ],
  );
}

const shed = (f: LoadFigures) =>
  sum([f.overload, f.overQuota].map((p) => (p.statuses['429'] ?? 0) + (p.statuses['503'] ?? 0)));

export function renderReliability(run: RunInfo, figures: Recorded): string {
  const { machine } = run;
  return `# Reliability

Generated by \`${run.command}\` on ${machine.date}: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}.
The suites (test/reliability/) ${run.passed ? 'passed' : '**failed**'} in ${run.wallSeconds.toFixed(0)} s, run one file at a time. They also run in CI with \`npm test\` (load phase 15 s there).
All traffic is on 127.0.0.1.

## Totals

${totals(figures)}

## 1. API fuzzing

${fuzzSection(figures.fuzz)}

## 2. Authentication

${authSection(figures.auth)}

## 3. Malformed batch input

Every case is either a job-level error (exit 1, a message naming the problem, nothing under a final name in \`--out\`) or rows scored and rejected with reasons, with \`rows_in = rows_scored + rows_rejected\` checked against the files.

${batchInputSection(figures['batch-input'])}

## 4. Remote faults

\`outlay score --engine remote\` (concurrency 8, timeout 1 s) through a fault-injecting proxy in front of \`outlay serve\`; each scenario is compared row by row with a fault-free run of the same file.

${remoteSection(figures['remote-faults'])}

## 5. Crash and resume

${crashSection(figures['crash-resume'])}

## 6. Load

${loadSection(figures.load, run.loadSeconds)}
${OVERNIGHT_SECTION}`;
}

/** Behaviours, not figures: the contract tests named in it pass or the suite fails. */
const OVERNIGHT_SECTION = `
## 7. The overnight run: stops, overlaps, resumes, outages

What a scheduled run does when the night brings trouble; each behaviour is a contract test through the real
binary on real files (test/reliability/night-run.test.ts, test/jobs/batch/merge/deploy.test.ts,
test/remote/outage-cli.test.ts). docs/batch.md
has the details.

| trouble | behaviour | exit |
| --- | --- | --- |
| a second run into the same \`--out\` and input name (or two shards sharing a directory) | refused at once, naming the holder (pid, host, start); the first run's outputs are untouched | 1 |
| SIGTERM / SIGINT | stops reading, writes the rows in flight, checkpoints (\`--resume\`), logs, publishes nothing, leaves no \`.partial\` file without \`--resume\`; \`--resume\` then finishes byte-identical to an uninterrupted run | 143 / 130 |
| more rejects than \`--max-reject-rate\` | outputs published, run failed | 4 |
| rejects within \`--max-reject-rate\` (or no limit set) | outputs published | 3 |
| input edited in place, size and mtime restored, then \`--resume\` | the checkpoint's input SHA-256 differs: logged, starts over on the new content | as the run |
| a run without \`--resume\` after an interrupted \`--resume\` run | it removes the old checkpoint with the temporary files it replaces; a later \`--resume\` starts cleanly | as the run |
| \`outlay merge\` of shards of two different files sharing a name | refused, naming the two SHA-256s | 1 |
| CSV on standard input (\`outlay score -\`) | scored like the file; \`--resume\` refused | as the run / 1 |
| remote mode: the server unreachable mid-run (connection refused or reset, timeouts, 502/503/504 after retries) | the whole job pauses, probes \`GET /healthz\` with backoff (250 ms up to 10 s, each probe logged), and starts the paused requests again when the server answers: no row is rejected for it, and the files equal a local run's (test/remote/outage-cli.test.ts) | as the run |
| remote mode: the server still unreachable after \`--max-outage\` seconds (default 120) | fails; with \`--resume\` the checkpoint is kept, and \`--resume\` after the server is back gives the local run's files | 1 |
| remote mode: no server answering at the start | refused before the first row, naming the health check; nothing published | 1 |
| remote mode: the server throttles (429) | waited out as \`Retry-After\` asks, without using up retries; a warning at the first 429 of each window names the limit the server announced (\`RateLimit-Policy\`) | as the run |

Exit codes of \`outlay score\` over a file: 0 every row scored; 3 finished with data rejects within
\`--max-reject-rate\`; 4 reject rate exceeded; 1 infrastructure or usage failure, nothing published;
130/143 interrupted by SIGINT/SIGTERM. Every run logs a start line (input, options, model, workers) and an
end line (counts, exit code, duration).
`;
