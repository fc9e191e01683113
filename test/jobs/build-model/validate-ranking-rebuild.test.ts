/**
 * The model card's ranking table (docs/model.md, section 5) is what `outlay build-model --validate --only
 * ranking` writes: regenerated from the raw shared folders (the model refitted on the training CUs, the
 * comparators, the bootstrap), it is byte for byte the committed text between the card's markers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateModel } from '../../../jobs/build-model/validate.js';
import { loadGeoResolver } from '../../../src/geo/load.js';
import { DATA_DIR, PACKAGE_ROOT } from '../../../src/paths.js';

const shared = process.env.OUTLAY_SHARED_DIR;

describe('model card ranking table rebuild from raw data', () => {
  it.skipIf(!shared)(
    'validateModel ranking: raw shared folders, the card section byte for byte (needs OUTLAY_SHARED_DIR=<raw shared folder>; skipped without it)',
    async () => {
      const { ranking } = validateModel(
        {
          ceDir: join(shared!, 'ce'),
          geoDir: join(shared!, 'geo'),
          cpiDir: join(shared!, 'cpi'),
          dataDir: DATA_DIR,
          resolver: await loadGeoResolver(),
        },
        ['ranking'],
      );
      const card = readFileSync(join(PACKAGE_ROOT, 'docs', 'model.md'), 'utf8');
      const open = '<!-- generated:ranking -->\n';
      const committed = card.slice(
        card.indexOf(open) + open.length,
        card.indexOf('\n<!-- /generated:ranking -->'),
      );
      expect(ranking!.trim()).toBe(committed);
    },
    1_800_000,
  );
});
