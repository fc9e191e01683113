/**
 * What the card-regeneration tests share: a generated section of docs/model.md as committed, and the
 * options `validateModel` reads the raw shared folders with.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateOptions } from '../../../jobs/build-model/validate.js';
import { loadGeoResolver } from '../../../src/geo/load.js';
import { DATA_DIR, PACKAGE_ROOT } from '../../../src/paths.js';

/** The text between `<!-- generated:NAME -->` and its closing marker, as `writeSections` writes it. */
export function committedSection(name: string): string {
  const card = readFileSync(join(PACKAGE_ROOT, 'docs', 'model.md'), 'utf8');
  const open = `<!-- generated:${name} -->\n`;
  return card.slice(card.indexOf(open) + open.length, card.indexOf(`\n<!-- /generated:${name} -->`));
}

/** `validateModel`'s options for the raw shared folder `shared` and the committed data. */
export async function sharedValidateOptions(shared: string): Promise<ValidateOptions> {
  return {
    ceDir: join(shared, 'ce'),
    geoDir: join(shared, 'geo'),
    cpiDir: join(shared, 'cpi'),
    dataDir: DATA_DIR,
    resolver: await loadGeoResolver(),
  };
}
