/**
 * The JSON each figure writes to the results directory. `run-all` renders docs/benchmarks.md from these
 * files only, so a figure can be re-run on its own and the document regenerated without re-running the rest.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { describeMachine, type Machine } from './machine.js';
import { speedReferenceNs } from './speed-reference.js';

/** Every figure, in the order run-all runs and documents them; each is bench/<figure>.ts. */
export const FIGURES = ['engine', 'batch', 'parquet', 'api', 'remote'] as const;

export interface Measurement {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly detail?: string;
}

export interface TargetCheck {
  readonly name: string;
  /** The goal, e.g. "≤ 1.30× floor". */
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
  /** For an unmet target: what limits it, from this run's own figures, for the document's readers. */
  readonly explanation?: string;
}

/** A target check with its explanation, which is kept only when the target is not met. */
export function checked(check: Omit<TargetCheck, 'explanation'>, explanation: () => string): TargetCheck {
  return check.met ? check : { ...check, explanation: explanation() };
}

export interface FigureResult {
  readonly figure: string;
  readonly title: string;
  readonly command: string;
  readonly smoke: boolean;
  readonly startedAt: string;
  /**
   * One-minute load average when the figure started and ended: on a machine shared with other work, the
   * numbers only mean something when this stayed near the figure's own load.
   */
  readonly loadAverage: readonly [number, number];
  /**
   * The machine's speed when the figure started and ended (speed-reference.ts, CPU ns per pass): on a VM
   * whose speed drifts, figures compare only at similar readings.
   */
  readonly speedReference: readonly [number, number];
  /** The Node.js version the figure ran on (process.version): published figures are the shipped runtime's (runtime.ts). */
  readonly node: string;
  /** The machine the figure ran on, which need not be the one that renders the document. */
  readonly machine: Machine;
  readonly parameters: Readonly<Record<string, string | number>>;
  readonly measurements: readonly Measurement[];
  readonly targets: readonly TargetCheck[];
  /** How the figure is measured (one line each), and CPU profile summaries (several lines each). */
  readonly notes: readonly string[];
}

export function resultPath(dir: string, figure: string): string {
  return join(dir, `${figure}.json`);
}

export interface FigureStart {
  readonly startedAt: string;
  readonly loadAtStart: number;
  readonly speedAtStart: number;
}

export function startFigure(): FigureStart {
  return {
    startedAt: new Date().toISOString(),
    loadAtStart: loadavg()[0]!,
    speedAtStart: speedReferenceNs(),
  };
}

export async function writeResult(
  dir: string,
  start: FigureStart,
  report: Omit<FigureResult, 'startedAt' | 'loadAverage' | 'speedReference' | 'node' | 'machine'>,
): Promise<string> {
  const result: FigureResult = {
    ...report,
    startedAt: start.startedAt,
    loadAverage: [start.loadAtStart, loadavg()[0]!],
    speedReference: [start.speedAtStart, speedReferenceNs()],
    node: process.version,
    machine: describeMachine(),
  };
  await mkdir(dir, { recursive: true });
  const path = resultPath(dir, result.figure);
  await writeFile(path, `${JSON.stringify(result, null, 2)}\n`);
  return path;
}

export async function readResult(dir: string, figure: string): Promise<FigureResult> {
  return JSON.parse(await readFile(resultPath(dir, figure), 'utf8')) as FigureResult;
}
