/**
 * The local engine spread over worker threads. Each worker handles its batches in the order it receives
 * them; the job awaits results in input order, so output order never depends on which worker was faster.
 * A worker that fails takes the job down (its batches cannot be silently skipped).
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PACKAGE_ROOT } from '../../src/paths.js';
import type { EncodedBatch } from './encode.js';
import type { BatchScorer } from './scorer.js';
import type { WorkBatch } from './work.js';
import type { WorkerSetup } from './worker.js';

/** The compiled worker: worker threads cannot load TypeScript, so this is always the dist/ build. */
export const WORKER_SCRIPT = join(PACKAGE_ROOT, 'dist', 'jobs', 'score', 'worker.js');

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
      this.thread.postMessage(batch, [batch.rowNumbers.buffer as ArrayBuffer]);
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
  ) {
    // Two batches per worker: one being scored, one waiting, so no worker idles between batches.
    this.parallelBatches = workers.length * 2;
  }

  static async start(count: number, setup: WorkerSetup): Promise<WorkerPool> {
    const threads = Array.from({ length: count }, () => new Worker(WORKER_SCRIPT, { workerData: setup }));
    try {
      const versions = await Promise.all(threads.map(ready));
      return new WorkerPool(
        threads.map((thread) => new ScoringWorker(thread)),
        versions[0]!,
      );
    } catch (error) {
      await Promise.all(threads.map((thread) => thread.terminate()));
      throw error;
    }
  }

  score(batch: WorkBatch): Promise<EncodedBatch> {
    let idlest = this.workers[0]!;
    for (const worker of this.workers) if (worker.pending.length < idlest.pending.length) idlest = worker;
    return idlest.send(batch);
  }

  async close(): Promise<void> {
    for (const worker of this.workers) worker.thread.removeAllListeners('exit');
    await Promise.all(this.workers.map((worker) => worker.thread.terminate()));
  }
}

function ready(thread: Worker): Promise<string> {
  return new Promise((resolve, reject) => {
    thread.once('message', (message: { modelVersion: string }) => resolve(message.modelVersion));
    thread.once('error', reject);
    thread.once('exit', (code) =>
      reject(new Error(`a scoring worker exited during start-up (code ${code})`)),
    );
  });
}
