/**
 * data/population/ must be exactly what jobs/extract/population.ts makes from the raw public files. The raw
 * files live outside the repository; CI passes their folder as OUTLAY_SHARED_DIR (see DEVELOPERS.md).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractPopulation } from '../../jobs/extract/population.js';
import { POPULATION_DIR } from '../../src/sample/population.js';

const shared = process.env.OUTLAY_SHARED_DIR;

describe('population extract rebuild', () => {
  it.skipIf(!shared)(
    'rebuilds data/population byte for byte from the raw CE and geo files in OUTLAY_SHARED_DIR (skipped when unset)',
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'outlay-population-'));
      await extractPopulation(join(shared!, 'ce'), join(shared!, 'geo'), out);
      for (const file of ['households.csv', 'states.csv', 'zips.csv']) {
        expect(readFileSync(join(out, file)).equals(readFileSync(join(POPULATION_DIR, file))), file).toBe(
          true,
        );
      }
    },
    600_000,
  );
});
