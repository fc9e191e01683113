/**
 * Memory after a full garbage collection, for leak checks in a test process that was not started with
 * --expose-gc (vitest starts the workers): the flag can still be set at run time and `gc` fetched from a
 * fresh context.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

export interface MemorySample {
  readonly heapUsed: number;
  readonly rss: number;
}

export async function memoryAfterGc(): Promise<MemorySample> {
  // Twice, with a turn of the event loop between, so objects freed by finalisers are gone too.
  collectGarbage();
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}
