import { existsSync } from 'node:fs';
import { createEngine } from '../../src/engine/create-engine.js';
import type { Engine } from '../../src/engine/types.js';
import { DEFAULT_MODEL_PATH } from '../../src/model/load.js';
import { loadEngine } from '../../src/runtime/load-engine.js';
import { fakeGeo, fakeModel } from './fakes.js';

/**
 * The shipped engine (real artifact and geography) when the artifact has been built; otherwise the fake
 * model, so the properties still run in a fresh checkout. The label goes into test names to say which.
 */
export async function engineUnderTest(): Promise<{ engine: Engine; label: string }> {
  return existsSync(DEFAULT_MODEL_PATH)
    ? { engine: await loadEngine(), label: 'the shipped artifact' }
    : {
        engine: createEngine({ model: fakeModel(), geo: fakeGeo }),
        label: 'the fake model (artifact not built)',
      };
}
