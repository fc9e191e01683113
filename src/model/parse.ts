/** Turns the parsed JSON of a model artifact into a SpendingModel, checking shapes first (pure, no I/O). */
import { CATEGORY_COUNT } from '../contract/categories.js';
import { HOUSEHOLD_TYPES } from '../contract/schemas.js';
import { AREA_SLOTS, ARTIFACT_FORMAT, type ModelArtifact, REGION_SLOTS, TENURE_CLASSES } from './artifact.js';
import { COMPOSITION_LOGIT_LENGTH } from './composition.js';
import { TableSpendingModel } from './spending-model.js';
import type { SpendingModel } from './types.js';

/** savings and other_debt_payments are derived, so the tables cover two categories fewer. */
const SPENDING_CATEGORIES = CATEGORY_COUNT - 2;

/** `digest` (of the artifact's bytes), when given, is appended to the version as build metadata. */
export function parseModelArtifact(json: unknown, digest?: string): SpendingModel {
  const artifact = checkArtifact(json);
  return new TableSpendingModel(
    digest === undefined ? artifact : { ...artifact, version: `${artifact.version}+${digest}` },
  );
}

export function checkArtifact(json: unknown): ModelArtifact {
  if (typeof json !== 'object' || json === null) throw new Error('model artifact: not an object');
  const a = json as ModelArtifact;
  if (a.format !== ARTIFACT_FORMAT)
    throw new Error(`model artifact: format ${String(a.format)}, want ${ARTIFACT_FORMAT}`);
  if (a.spendingCategories !== SPENDING_CATEGORIES) throw new Error('model artifact: wrong category count');
  const n = SPENDING_CATEGORIES;
  const points = a.incomeGrid?.points;
  if (!Number.isInteger(points) || points < 2) throw new Error('model artifact: bad income grid');
  const lengths: [keyof ModelArtifact, number][] = [
    ['income', TENURE_CLASSES.length * n * points],
    ['age', n * (a.ageMax - a.ageMin + 1)],
    ['size', n * a.sizeMax],
    ['ageMarginal', n * points],
    ['sizeMarginal', n * points],
    ['ageSizeMarginal', n * points],
    ['ownerLogit', 6],
    ['mortgageLogit', 6],
    ['ownerByIncome', points],
    ['mortgageByIncome', points],
    ['composition', n * HOUSEHOLD_TYPES.length],
    ['compositionLogit', COMPOSITION_LOGIT_LENGTH],
    ['region', n * REGION_SLOTS.length],
    ['area', n * AREA_SLOTS.length],
    ['rppComponent', n],
    ['rppElasticity', n],
  ];
  for (const [key, length] of lengths) {
    const value = a[key];
    if (!Array.isArray(value) || value.length !== length || !value.every(Number.isFinite)) {
      throw new Error(`model artifact: ${key} must be ${length} finite numbers`);
    }
  }
  return a;
}
