/** Turns the parsed JSON of a model artifact into a SpendingModel, checking it first (pure, no I/O). */
import { SPENDING_CATEGORY_COUNT } from '../contract/categories.js';
import { valueAt } from '../contract/json-pointer.js';
import { Compile } from '../vendor/typebox.js';
import { ModelArtifact, TENURE_CLASSES } from './artifact.js';
import { COMPOSITION_LOGIT_LENGTH } from './composition.js';
import { distributionLengthProblems } from './distribution.js';
import { TableSpendingModel } from './spending-model.js';
import type { SpendingModel } from './types.js';

/** `digest` (of the artifact's bytes), when given, is appended to the version as build metadata. */
export function parseModelArtifact(json: unknown, digest?: string): SpendingModel {
  const artifact = checkArtifact(json);
  return new TableSpendingModel(
    digest === undefined ? artifact : { ...artifact, version: `${artifact.version}+${digest}` },
  );
}

const schema = Compile(ModelArtifact);
/** Problems named in the error, at most; an artifact with more is named by its first ones. */
const LISTED_PROBLEMS = 5;

/** The artifact, if it fits the schema and its tables have the lengths its other entries give. */
export function checkArtifact(json: unknown): ModelArtifact {
  const problems = schema.Check(json) ? lengthProblems(json) : schemaProblems(json);
  if (problems.length > 0)
    throw new Error(`model artifact: ${problems.slice(0, LISTED_PROBLEMS).join('; ')}`);
  return json as ModelArtifact;
}

interface RawError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly message: string;
}

function schemaProblems(json: unknown): string[] {
  return (schema.Errors(json) as RawError[])
    .filter((error) => error.keyword !== 'boolean') // an unknown entry, named again by additionalProperties
    .map((error) => {
      const path = error.instancePath || '(the artifact)';
      const value = valueAt(json, error.instancePath);
      const shown = typeof value === 'number' || typeof value === 'string' ? ` (is ${String(value)})` : '';
      return `${path} ${error.message}${shown}`;
    });
}

/** What the schema cannot say: the category count, and table lengths given by the artifact's own entries. */
function lengthProblems(artifact: ModelArtifact): string[] {
  const n = SPENDING_CATEGORY_COUNT;
  const { points } = artifact.incomeGrid;
  // savings and other_debt_payments are derived, so the tables cover the spending categories only.
  if (artifact.spendingCategories !== n)
    return [`/spendingCategories is ${artifact.spendingCategories}; the model has ${n} spending categories`];
  if (artifact.ageMax < artifact.ageMin)
    return [`/ageMax is ${artifact.ageMax}, below /ageMin ${artifact.ageMin}`];
  const ages = artifact.ageMax - artifact.ageMin + 1;
  const lengths: [keyof ModelArtifact, number, string][] = [
    [
      'income',
      TENURE_CLASSES.length * n * points,
      `${TENURE_CLASSES.length} tenure classes × ${n} categories × ${points} grid points`,
    ],
    ['age', n * ages, `${n} categories × ${ages} ages`],
    ['size', n * artifact.sizeMax, `${n} categories × ${artifact.sizeMax} sizes`],
    ['ageMarginal', n * points, `${n} categories × ${points} grid points`],
    ['sizeMarginal', n * points, `${n} categories × ${points} grid points`],
    ['ageSizeMarginal', n * points, `${n} categories × ${points} grid points`],
    ['ownerByIncome', points, `${points} grid points`],
    ['mortgageByIncome', points, `${points} grid points`],
    ['compositionLogit', COMPOSITION_LOGIT_LENGTH, 'patterns × stages × terms (src/model/composition.ts)'],
  ];
  return [
    ...lengths
      .filter(([key, length]) => (artifact[key] as readonly number[]).length !== length)
      .map(
        ([key, length, why]) =>
          `/${key} has ${(artifact[key] as readonly number[]).length} entries; it must have ${length} (${why})`,
      ),
    ...distributionLengthProblems(artifact.distribution, n),
  ];
}
