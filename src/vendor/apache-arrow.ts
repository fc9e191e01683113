/**
 * apache-arrow, as the rest of the code imports it. `npm run build` replaces this module's compiled file
 * with one esbuild bundle (see ./typebox.ts): loading the package's ~150 ESM files took ~150 ms of every
 * Arrow job's start, against ~30 ms for the bundle.
 */
export * from 'apache-arrow';
