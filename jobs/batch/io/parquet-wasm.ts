/**
 * parquet-wasm, loaded once, compiled by V8's baseline WebAssembly compiler (Liftoff) only. By default V8
 * recompiles the module's hot functions with its optimising compiler, whose compilation memory and code
 * stayed resident: reading three row groups of a Parquet file grew RSS by 30 MB with it and by 10 MB
 * without it (Node 22), and a Parquet → Parquet job on 1 M rows peaked at 270 MB without it against
 * 293 MB with it, using as much CPU (19.6 against 19.2 CPU-s). The flag is set just before the module is
 * compiled; V8 applies it to WebAssembly compiled from then on, which in a job is parquet-wasm alone.
 */
import { setFlagsFromString } from 'node:v8';

type ParquetWasm = typeof import('parquet-wasm');

let loaded: Promise<ParquetWasm> | undefined;

export function loadParquetWasm(): Promise<ParquetWasm> {
  if (loaded === undefined) {
    setFlagsFromString('--liftoff-only');
    loaded = import('parquet-wasm');
  }
  return loaded;
}
