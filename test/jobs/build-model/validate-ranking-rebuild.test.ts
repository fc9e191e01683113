/**
 * The model card's ranking table (docs/model.md, section 5) is what `outlay build-model --validate --only
 * ranking` writes: regenerated from the raw shared folders (the model refitted on the training CUs, the
 * comparators, the bootstrap), it is byte for byte the committed text between the card's markers.
 */
import { describe, expect, it } from 'vitest';
import { validateModel } from '../../../jobs/build-model/validate.js';
import { committedSection, sharedValidateOptions } from './card-section.js';

const shared = process.env.OUTLAY_SHARED_DIR;

describe('model card ranking table rebuild from raw data', () => {
  it.skipIf(!shared)(
    'validateModel ranking: raw shared folders, the card section byte for byte (needs OUTLAY_SHARED_DIR=<raw shared folder>; skipped without it)',
    async () => {
      const { ranking } = validateModel(await sharedValidateOptions(shared!), ['ranking']);
      expect(ranking!.trim()).toBe(committedSection('ranking'));
    },
    1_800_000,
  );
});
