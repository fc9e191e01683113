/**
 * How to obtain the local engine, as plain data so each worker thread can load its own copy: a module that
 * exports `loadEngine(options)` (src/runtime/load-engine.ts; tests substitute a module of their own).
 */
import type { LocalEngine } from '../../../src/engine/types.js';

export interface EngineSpec {
  /** URL of the module exporting `loadEngine`. */
  readonly module: string;
  readonly options: {
    readonly modelPath?: string;
    readonly scoreReferencePath?: string;
    readonly geoDir?: string;
    readonly scoreKey: string;
  };
}

export const DEFAULT_ENGINE_MODULE = new URL('../../../src/runtime/load-engine.js', import.meta.url).href;

export async function loadEngineFrom(spec: EngineSpec): Promise<LocalEngine> {
  const module = (await import(spec.module)) as {
    loadEngine(options: EngineSpec['options']): Promise<LocalEngine>;
  };
  return module.loadEngine(spec.options);
}
