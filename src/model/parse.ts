/** Turns the parsed JSON of a model artifact into a SpendingModel, checking shapes first (pure, no I/O). */
import { SPENDING_CATEGORY_COUNT } from '../contract/categories.js';
import { HOUSEHOLD_TYPES } from '../contract/schemas.js';
import {
  AREA_SLOTS,
  ARTIFACT_FORMAT,
  type ModelArtifact,
  REGION_SLOTS,
  RPP_COMPONENTS,
  TENURE_CLASSES,
} from './artifact.js';
import { COMPOSITION_LOGIT_LENGTH } from './composition.js';
import { TableSpendingModel } from './spending-model.js';
import type { SpendingModel } from './types.js';

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
  // savings and other_debt_payments are derived, so the tables cover the spending categories only.
  if (a.spendingCategories !== SPENDING_CATEGORY_COUNT)
    throw new Error('model artifact: wrong category count');
  const n = SPENDING_CATEGORY_COUNT;
  const points = a.incomeGrid?.points;
  if (!Number.isInteger(points) || points < 2) throw new Error('model artifact: bad income grid');
  // Spending, factors and shares are never negative, and shares never above 1: then neither is any amount
  // the model computes from them (interpolations, weighted sums and products of them), which the budget's
  // rounding of the modeled amounts relies on (`roundNonNegative`).
  const tables: [keyof ModelArtifact, number, Range][] = [
    ['income', TENURE_CLASSES.length * n * points, NON_NEGATIVE],
    ['age', n * (a.ageMax - a.ageMin + 1), NON_NEGATIVE],
    ['size', n * a.sizeMax, NON_NEGATIVE],
    ['ageMarginal', n * points, NON_NEGATIVE],
    ['sizeMarginal', n * points, NON_NEGATIVE],
    ['ageSizeMarginal', n * points, NON_NEGATIVE],
    ['ownerLogit', 6, ANY],
    ['mortgageLogit', 6, ANY],
    ['ownerByIncome', points, SHARE],
    ['mortgageByIncome', points, SHARE],
    ['composition', n * HOUSEHOLD_TYPES.length, NON_NEGATIVE],
    ['compositionLogit', COMPOSITION_LOGIT_LENGTH, ANY],
    ['region', n * REGION_SLOTS.length, NON_NEGATIVE],
    ['area', n * AREA_SLOTS.length, NON_NEGATIVE],
    ['rppComponent', n, COMPONENT_INDEX],
    ['rppElasticity', n, ANY],
  ];
  for (const [key, length, range] of tables) {
    const value = a[key];
    if (!Array.isArray(value) || value.length !== length) {
      throw new Error(`model artifact: ${key} must be ${length} finite numbers`);
    }
    const bad = value.findIndex(
      (x) =>
        !(
          Number.isFinite(x) &&
          x >= range.min &&
          x <= range.max &&
          (range.whole !== true || Number.isInteger(x))
        ),
    );
    if (bad >= 0) {
      throw new Error(
        `model artifact: ${key}[${bad}] is ${String(value[bad])}; it must be ${range.name} (${length} of them)`,
      );
    }
  }
  return a;
}

interface Range {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly whole?: boolean;
}
const ANY: Range = { name: 'a finite number', min: Number.NEGATIVE_INFINITY, max: Number.POSITIVE_INFINITY };
const NON_NEGATIVE: Range = { name: 'a finite number ≥ 0', min: 0, max: Number.POSITIVE_INFINITY };
const SHARE: Range = { name: 'a share from 0 to 1', min: 0, max: 1 };
const COMPONENT_INDEX: Range = {
  name: `a whole number from 0 to ${RPP_COMPONENTS.length - 1}`,
  min: 0,
  max: RPP_COMPONENTS.length - 1,
  whole: true,
};
