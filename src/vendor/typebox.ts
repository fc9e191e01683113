/**
 * TypeBox, as the rest of the code imports it. `npm run build` replaces this module's compiled file with
 * one esbuild bundle of the same exports: Node loads TypeBox's ~680 ESM files one at a time, which took
 * ~300 ms of every thread's start (the CLI's main thread, each scoring worker, the server) against ~20 ms
 * for the bundle. Tests run this source as it is, on the package itself.
 */
export { default, type Static, type TObject, type TSchema } from 'typebox';
export { Compile } from 'typebox/compile';
export { Settings } from 'typebox/system';
