/**
 * The local engine spread over worker threads, and optionally the main thread. Each worker handles its
 * batches in the order it receives them; the job awaits results in input order, so output order never
 * depends on which thread was faster. A worker that fails takes the job down (its batches cannot be
 * silently skipped).
 */
import { join } from 'node:path';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import { cellBuffers } from '../../src/io/input-source.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import type { EncodedBatch } from './encode.js';
import { loadEngineFrom } from './engine-spec.js';
import { InProcessScorer } from './local-scorer.js';
import type { BatchScorer } from './scorer.js';
import type { WorkBatch } from './work.js';
import type { WorkerReady, WorkerSetup } from './worker.js';

/** The compiled worker: worker threads cannot load TypeScript, so this is always the dist/ build. */
export const WORKER_SCRIPT = join(PACKAGE_ROOT, 'dist', 'jobs', 'score', 'worker.js');

/**
 * Heap limits of a scoring worker. Its live set is one engine (model and geography tables, ~10 MB of heap)
 * plus the two batches it holds; without limits V8 lets each worker's heap grow with the garbage of the
 * rows it has seen, which multiplied by the worker count was most of the job's peak RSS. The young
 * generation bounds how much per-row garbage accumulates between scavenges: 8 MB rather than 16 saved
 * 15–45 MB of peak RSS, and the extra scavenges did not show in the job's CPU time. The old generation
 * leaves the live set a wide margin (a worker that outgrows it fails the job with
 * ERR_WORKER_OUT_OF_MEMORY, never silently).
 */
export const WORKER_RESOURCE_LIMITS = {
  maxOldGenerationSizeMb: 96,
  maxYoungGenerationSizeMb: 8,
} as const satisfies ResourceLimits;

/** One batch being scored and one waiting, so that no worker idles between batches. */
const BATCHES_PER_WORKER = 2;
/**
 * Batches the main thread may have scored ahead of the oldest one still in a worker. It reads, writes and
 * keeps the summary as well, so it should score less than a worker: with one it scores about one batch
 * for a worker's two; with two it scored as many as the worker and became the slower thread (Arrow → Arrow
 * on 1 M rows: main thread 5.8 CPU-s, worker 3.8).
 */
const MAIN_THREAD_BATCHES = 1;

interface Pending {
  resolve(batch: EncodedBatch): void;
  reject(error: Error): void;
}

class ScoringWorker {
  readonly pending: Pending[] = [];
  private failure: Error | undefined;

  constructor(readonly thread: Worker) {
    thread.on('message', (message: EncodedBatch) => this.pending.shift()?.resolve(message));
    thread.on('error', (error) => this.fail(error));
    thread.on('exit', (code) => this.fail(new Error(`a scoring worker exited unexpectedly (code ${code})`)));
  }

  send(batch: WorkBatch): Promise<EncodedBatch> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.thread.postMessage(batch, [batch.rowNumbers.buffer as ArrayBuffer, ...cellBuffers(batch.cells)]);
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const pending of this.pending.splice(0)) pending.reject(this.failure);
  }
}

export class WorkerPool implements BatchScorer {
  readonly engineKind = 'local';
  readonly parallelBatches: number;

  private constructor(
    private readonly workers: ScoringWorker[],
    readonly modelVersion: string,
    /** Each worker's heap limit as its V8 reports it. */
    readonly heapLimitsMb: readonly number[],
    /** Null once closed, so that its engine can be collected. */
    private mainThread: InProcessScorer | null,
  ) {
    this.parallelBatches =
      workers.length * BATCHES_PER_WORKER + (mainThread === null ? 0 : MAIN_THREAD_BATCHES);
  }

  /**
   * `count` worker threads; with `mainThread`, the main thread also loads an engine and scores a batch
   * itself whenever every worker has one waiting, instead of idling until the oldest result returns.
   * On two cores one worker plus the main thread scores as fast as two workers, and a worker (its own
   * isolate, modules, engine and heap) costs ~40-60 MB of peak RSS.
   */
  static async start(count: number, setup: WorkerSetup, mainThread = false): Promise<WorkerPool> {
    const threads = Array.from(
      { length: count },
      () => new Worker(WORKER_SCRIPT, { workerData: setup, resourceLimits: WORKER_RESOURCE_LIMITS }),
    );
    try {
      const [started, engine] = await Promise.all([
        Promise.all(threads.map(ready)),
        mainThread ? loadEngineFrom(setup.engine) : undefined,
      ]);
      return new WorkerPool(
        threads.map((thread) => new ScoringWorker(thread)),
        started[0]!.modelVersion,
        started.map((worker) => worker.heapLimitMb),
        engine === undefined ? null : new InProcessScorer(engine, setup.layout),
      );
    } catch (error) {
      await Promise.all(threads.map((thread) => thread.terminate()));
      throw error;
    }
  }

  score(batch: WorkBatch): Promise<EncodedBatch> {
    let idlest = this.workers[0]!;
    for (const worker of this.workers) if (worker.pending.length < idlest.pending.length) idlest = worker;
    if (this.mainThread !== null && idlest.pending.length >= BATCHES_PER_WORKER)
      return this.mainThread.score(batch);
    return idlest.send(batch);
  }

  async close(): Promise<void> {
    this.mainThread = null;
    for (const worker of this.workers) worker.thread.removeAllListeners('exit');
    await Promise.all(this.workers.map((worker) => worker.thread.terminate()));
  }
}

function ready(thread: Worker): Promise<WorkerReady> {
  return new Promise((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
    thread.once('exit', (code) =>
      reject(new Error(`a scoring worker exited during start-up (code ${code})`)),
    );
  });
}
