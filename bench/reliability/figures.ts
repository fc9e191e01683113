/**
 * The figures each reliability suite records for docs/reliability.md. The suites write them only when the
 * report command (bench/reliability/report.ts) names a directory in OUTLAY_RELIABILITY_FIGURES, so a plain
 * `npm test` leaves no files behind.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const FIGURES_DIR_ENV = 'OUTLAY_RELIABILITY_FIGURES';

/** Count of things by name (status code, fault kind, body kind). */
export type Tally = Record<string, number>;

export interface EndpointFuzzFigures {
  readonly bodies: number;
  readonly statuses: Tally;
  readonly bodyKinds: Tally;
  /** 200 answers whose contract invariants were checked. */
  readonly invariantsChecked: number;
}

export interface FuzzFigures {
  readonly seed: number;
  readonly endpoints: Record<string, EndpointFuzzFigures>;
  readonly unexpected: number;
  readonly serverErrorsLogged: number;
  readonly crashes: number;
  readonly heapAfterGcBytes: { readonly first: number; readonly last: number };
  readonly rssBytes: { readonly first: number; readonly last: number };
  readonly rateLimit: { readonly sent: number; readonly statuses: Tally };
}

export interface AuthFigures {
  readonly rejections: readonly { readonly key: string; readonly status: number }[];
  readonly keysSearchedInKeysFile: number;
  readonly logLines: number;
  readonly keysSearchedInLogs: number;
  readonly leaks: number;
}

export interface BatchInputCase {
  readonly name: string;
  readonly outcome: 'job error' | 'scored with rejects' | 'scored';
  readonly exitCode: number;
  readonly rowsIn: number | null;
  readonly rowsScored: number | null;
  readonly rowsRejected: number | null;
  /** The job-level error message, or the first reject reason. */
  readonly message: string;
}

export interface BatchInputFigures {
  readonly cases: readonly BatchInputCase[];
}

export interface FaultScenarioFigures {
  readonly name: string;
  readonly rows: number;
  readonly scored: number;
  readonly rejected: number;
  readonly lost: number;
  readonly requests: number;
  readonly faults: Tally;
  readonly identicalToFaultFree: boolean;
  readonly seconds: number;
}

export interface RemoteFaultFigures {
  readonly scenarios: readonly FaultScenarioFigures[];
}

export interface CrashResumeFigures {
  readonly seed: number;
  readonly rows: number;
  /** Chains of kill-and-resume on one output directory, each ending in a completed run. */
  readonly chains: number;
  readonly kills: number;
  readonly killsAfterACheckpoint: number;
  readonly runs: number;
  readonly identicalOutputs: number;
  readonly incompleteFilesUnderFinalNames: number;
}

export interface LoadPhaseFigures {
  readonly connections: number;
  readonly seconds: number;
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly statuses: Tally;
  readonly errors: number;
  readonly timeouts: number;
}

export interface LoadFigures {
  readonly capacity: LoadPhaseFigures;
  readonly sustained: LoadPhaseFigures;
  readonly overload: LoadPhaseFigures;
  /** Overload from one key past its per-key limit: shed with 429. */
  readonly overQuota: LoadPhaseFigures;
  /** 1 if the server process had exited by the end of the suite. */
  readonly crashes: number;
}

export interface ReliabilityFigures {
  readonly fuzz: FuzzFigures;
  readonly auth: AuthFigures;
  readonly 'batch-input': BatchInputFigures;
  readonly 'remote-faults': RemoteFaultFigures;
  readonly 'crash-resume': CrashResumeFigures;
  readonly load: LoadFigures;
}

export type SuiteName = keyof ReliabilityFigures;

export const SUITES: readonly SuiteName[] = [
  'fuzz',
  'auth',
  'batch-input',
  'remote-faults',
  'crash-resume',
  'load',
];

export async function recordFigures<S extends SuiteName>(
  suite: S,
  figures: ReliabilityFigures[S],
): Promise<void> {
  const dir = process.env[FIGURES_DIR_ENV];
  if (dir === undefined || dir === '') return;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${suite}.json`), `${JSON.stringify(figures, null, 2)}\n`);
}

export async function readFigures<S extends SuiteName>(
  dir: string,
  suite: S,
): Promise<ReliabilityFigures[S] | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, `${suite}.json`), 'utf8')) as ReliabilityFigures[S];
  } catch {
    return undefined;
  }
}

/** Adds one to a tally entry. */
export function count(tally: Tally, name: string | number): void {
  const key = String(name);
  tally[key] = (tally[key] ?? 0) + 1;
}
