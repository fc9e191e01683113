/** Reads the committed model artifact from disk (the only model module that touches the file system). */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_DIR } from '../paths.js';
import { parseModelArtifact } from './parse.js';
import type { SpendingModel } from './types.js';

export const DEFAULT_MODEL_PATH = join(DATA_DIR, 'model', 'outlay-model.json');

/**
 * The loaded model's version is the artifact's semantic version plus a digest of its bytes
 * (`1.0.0+3f2a…`), so two artifacts with the same version but other coefficients are never taken for
 * one another: summaries from different models refuse to merge and a resumed job refuses a changed model.
 */
export async function loadSpendingModel(path: string = DEFAULT_MODEL_PATH): Promise<SpendingModel> {
  const bytes = await readFile(path);
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  return parseModelArtifact(JSON.parse(bytes.toString('utf8')), digest);
}
