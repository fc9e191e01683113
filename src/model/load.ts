/** Reads the committed model artifact from disk (the only model module that touches the file system). */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_DIR } from '../paths.js';
import { parseModelArtifact } from './parse.js';
import type { SpendingModel } from './types.js';

export const DEFAULT_MODEL_PATH = join(DATA_DIR, 'model', 'outlay-model.json');

export async function loadSpendingModel(path: string = DEFAULT_MODEL_PATH): Promise<SpendingModel> {
  return parseModelArtifact(JSON.parse(await readFile(path, 'utf8')));
}
