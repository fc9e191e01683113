/** The committed extract (data/geo/) must be exactly what jobs/extract/geo.ts makes from the raw files. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractGeo } from '../../jobs/extract/geo.js';
import { DEFAULT_GEO_DIR } from '../../src/geo/load.js';
import { GEO_FILES } from '../../src/geo/tables.js';

const sharedDir = process.env.OUTLAY_SHARED_DIR;

describe('geo extract rebuild', () => {
  it.skipIf(!sharedDir)(
    'extractGeo, raw files in $OUTLAY_SHARED_DIR/geo, reproduces data/geo byte for byte (skipped when OUTLAY_SHARED_DIR is not set: skipping rebuild from raw data)',
    async () => {
      const outDir = await mkdtemp(join(tmpdir(), 'outlay-geo-'));
      try {
        const summary = await extractGeo(join(sharedDir!, 'geo'), outDir);
        expect(summary.states).toBe(52);
        expect(summary.metrosWithRpp).toBe(379);
        for (const file of Object.values(GEO_FILES)) {
          const rebuilt = await readFile(join(outDir, file));
          const committed = await readFile(join(DEFAULT_GEO_DIR, file));
          expect(rebuilt.equals(committed), `${file} differs from the committed copy`).toBe(true);
        }
      } finally {
        await rm(outDir, { recursive: true, force: true });
      }
    },
  );
});
