/**
 * `outlay build-model`: rebuilds data/ce extracts, data/geo (when --geo-dir is given) and the model
 * artifact from the raw shared folders. The CPI folder is found next to --ce-dir (`<ce-dir>/../cpi`).
 * With `--validate` it instead recomputes the model card's validation tables from the committed extract and
 * artifact and writes them into docs/model.md (between its `<!-- generated:… -->` markers); the LendingClub
 * table reads `<ce-dir>/../lendingclub`.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { loadGeoResolver } from '../../src/geo/load.js';
import { DATA_DIR } from '../../src/paths.js';
import { BUILD_COMMAND, buildModel } from '../build-model/build.js';
import { validateModel, writeSections } from '../build-model/validate.js';
import { extractGeo } from '../extract/geo.js';

interface BuildModelArgs {
  'ce-dir': string;
  'geo-dir': string;
  out: string;
  validate: boolean;
  doc: string;
  only?: string[];
}

export const buildModelCommand: CommandModule<object, BuildModelArgs> = {
  command: 'build-model',
  describe: 'Rebuild the spending model artifact (and the data/ce, data/geo extracts) from raw BLS/BEA data',
  builder: (y) =>
    y
      .option('ce-dir', { type: 'string', demandOption: true, describe: 'raw CE folder (shared/ce)' })
      .option('geo-dir', {
        type: 'string',
        demandOption: true,
        describe: 'raw geography folder (shared/geo)',
      })
      .option('out', { type: 'string', default: 'data/model/outlay-model.json', describe: 'artifact path' })
      .option('validate', {
        type: 'boolean',
        default: false,
        describe: 'regenerate the validation tables of the model card instead of building',
      })
      .option('doc', { type: 'string', default: 'docs/model.md', describe: 'model card path (--validate)' })
      .option('only', {
        type: 'string',
        array: true,
        describe: 'with --validate: regenerate only these sections (e.g. --only ranking)',
      }),
  handler: async (args) => {
    const ceDir = resolve(args['ce-dir']);
    const geoDir = resolve(args['geo-dir']);
    const cpiDir = join(dirname(ceDir), 'cpi');
    if (args.validate) {
      const sections = validateModel(
        {
          ceDir,
          geoDir,
          cpiDir,
          dataDir: DATA_DIR,
          resolver: await loadGeoResolver(),
        },
        args.only,
      );
      writeSections(resolve(args.doc), sections);
      process.stderr.write(`outlay build-model --validate: wrote ${args.doc}\n`);
      return;
    }
    await extractGeo(geoDir, join(DATA_DIR, 'geo'));
    const { artifact } = buildModel({ command: BUILD_COMMAND, ceDir, geoDir, cpiDir, dataDir: DATA_DIR });
    writeFileSync(resolve(args.out), `${JSON.stringify(artifact)}\n`);
    process.stderr.write(`outlay build-model: wrote ${args.out}\n`);
  },
};
