/**
 * The local engine spread over worker threads, and optionally the main thread. Each worker handles its
 * batches in the order it receives them; the job awaits results in input order, so output order never
 * depends on which thread was faster. A worker that fails takes the job down (its batches cannot be
 * silently skipped).
 */
import { join } from 'node:path';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import { PACKAGE_ROOT } from '../../../src/paths.js';
import { cellBuffers } from '../io/input-source.js';
import type { EncodedBatch } from './encode.js';
import { loadEngineFrom } from './engine-spec.js';
import { InProcessScorer } from './local-scorer.js';
import type { BatchScorer } from './scorer.js';
import type { WorkBatch } from './work.js';
import type { WorkerReady, WorkerSetup } from './worker.js';

/** The compiled worker: worker threads cannot load TypeScript, so this is always the dist/ build. */
export const WORKER_SCRIPT = join(PACKAGE_ROOT, 'dist', 'jobs', 'batch', 'score', 'worker.js');

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
  /** The worker's first message (its engine is loaded); rejects if the worker fails before sending it. */
  readonly ready: Promise<WorkerReady>;
  #failure: Error | undefined;
  #started = false;
  #settleReady: { resolve(ready: WorkerReady): void; reject(error: Error): void } | undefined;

  constructor(readonly thread: Worker) {
    this.ready = new Promise((resolve, reject) => {
      this.#settleReady = { resolve, reject };
    });
    // Awaited only by callers that need it; a start-up failure also rejects every batch sent.
    this.ready.catch(() => undefined);
    thread.on('message', (message: WorkerReady | EncodedBatch) => {
      if (this.#started) this.pending.shift()?.resolve(message as EncodedBatch);
      else this.start(message as WorkerReady);
    });
    thread.on('error', (error) => this.fail(error));
    thread.on('exit', (code) =>
      this.fail(
        new Error(
          `a scoring worker exited ${this.#started ? 'unexpectedly' : 'during start-up'} (code ${code})`,
        ),
      ),
    );
  }

  /** Why the worker cannot score, once it has failed. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Whether the worker has loaded its engine. */
  get started(): boolean {
    return this.#started;
  }

  /** Batches sent before the worker is ready wait in its message queue. */
  send(batch: WorkBatch): Promise<EncodedBatch> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.thread.postMessage(batch, [batch.rowNumbers.buffer as ArrayBuffer, ...cellBuffers(batch.cells)]);
    });
  }

  /** Fails the worker if the engine it loads (or has loaded) is not of model `version`. */
  requireModel(version: string): void {
    this.ready.then(
      (ready) => {
        if (ready.modelVersion === version) return;
        this.fail(
          new Error(
            `a scoring worker loaded model ${ready.modelVersion}, the main thread ${version}: the model changed during start-up`,
          ),
        );
        void this.thread.terminate();
      },
      () => undefined,
    );
  }

  private start(ready: WorkerReady): void {
    this.#started = true;
    this.#settleReady?.resolve(ready);
  }

  private fail(error: Error): void {
    this.#failure ??= error;
    this.#settleReady?.reject(this.#failure);
    for (const pending of this.pending.splice(0)) pending.reject(this.#failure);
  }
}

export class WorkerPool implements BatchScorer {
  readonly engineKind = 'local';
  readonly parallelBatches: number;

  private constructor(
    private readonly workers: ScoringWorker[],
    readonly modelVersion: string,
    readonly priceYear: number,
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
   * isolate, modules, engine and heap) costs ~40-60 MB of peak RSS. With the main thread the pool is
   * ready as soon as the main thread's engine is, and the main thread scores every batch until a worker
   * has loaded its engine (waiting for the workers idled it for ~150 ms per run). A worker that fails
   * before it is ready fails the next batch the job sends.
   */
  static async start(count: number, setup: WorkerSetup, mainThread = false): Promise<WorkerPool> {
    // Each listened to from its spawn on: a ready message sent while the main engine loads is not lost.
    const workers = Array.from(
      { length: count },
      () =>
        new ScoringWorker(
          new Worker(WORKER_SCRIPT, { workerData: setup, resourceLimits: WORKER_RESOURCE_LIMITS }),
        ),
    );
    try {
      if (!mainThread) {
        const started = await Promise.all(workers.map((worker) => worker.ready));
        return new WorkerPool(workers, started[0]!.modelVersion, started[0]!.priceYear, null);
      }
      const engine = await loadEngineFrom(setup.engine);
      for (const worker of workers) worker.requireModel(engine.modelVersion);
      const inProcess = new InProcessScorer(engine, setup.layout);
      return new WorkerPool(workers, engine.modelVersion, engine.priceYear, inProcess);
    } catch (error) {
      await Promise.all(workers.map((worker) => worker.thread.terminate()));
      throw error;
    }
  }

  /** Each worker's heap limit as its V8 reports it, once the worker is ready. */
  async heapLimitsMb(): Promise<number[]> {
    const started = await Promise.all(this.workers.map((worker) => worker.ready));
    return started.map((worker) => worker.heapLimitMb);
  }

  /**
   * Sends the batch to the worker with the fewest waiting, or scores it on the main thread when every
   * worker has two waiting or (with the main thread) none has loaded its engine yet. A failed worker fails
   * every batch from then on.
   */
  score(batch: WorkBatch): Promise<EncodedBatch> {
    const { mainThread } = this;
    let idlest: ScoringWorker | undefined;
    for (const worker of this.workers) {
      if (worker.failure !== undefined) return Promise.reject(worker.failure);
      if (mainThread !== null && !worker.started) continue;
      if (idlest === undefined || worker.pending.length < idlest.pending.length) idlest = worker;
    }
    if (idlest === undefined) return mainThread!.score(batch);
    if (mainThread !== null && idlest.pending.length >= BATCHES_PER_WORKER) return mainThread.score(batch);
    return idlest.send(batch);
  }

  async close(): Promise<void> {
    this.mainThread = null;
    for (const worker of this.workers) worker.thread.removeAllListeners('exit');
    await Promise.all(this.workers.map((worker) => worker.thread.terminate()));
  }
}
