/**
 * Acceptance test of issue 3: rebuilding from the raw shared folders reproduces the committed model
 * artifact byte for byte, and the committed household extract row for row.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BUILD_COMMAND, buildModel } from '../../../jobs/build-model/build.js';
import { HOUSEHOLDS_FILE } from '../../../jobs/build-model/extract-ce.js';
import { DATA_DIR } from '../../../src/paths.js';

const shared = process.env.OUTLAY_SHARED_DIR;

describe('build-model rebuild from raw data', () => {
  it.skipIf(!shared)(
    'reproduces data/model/outlay-model.json byte for byte (needs OUTLAY_SHARED_DIR=<raw shared folder>; skipped without it)',
    () => {
      const out = mkdtempSync(join(tmpdir(), 'outlay-model-'));
      mkdirSync(join(out, 'ce'));
      const { artifact } = buildModel({
        ceDir: join(shared!, 'ce'),
        geoDir: join(shared!, 'geo'),
        cpiDir: join(shared!, 'cpi'),
        dataDir: out,
        command: BUILD_COMMAND,
      });
      expect(`${JSON.stringify(artifact)}\n`).toBe(
        readFileSync(join(DATA_DIR, 'model', 'outlay-model.json'), 'utf8'),
      );
      const rebuilt = gunzipSync(readFileSync(join(out, 'ce', HOUSEHOLDS_FILE))).toString('utf8');
      expect(rebuilt).toBe(gunzipSync(readFileSync(join(DATA_DIR, 'ce', HOUSEHOLDS_FILE))).toString('utf8'));
    },
    900_000,
  );
});
