/** A stand-in engine for tests of the HTTP layer alone: real validation, fixed answers. */
import { CATEGORIES } from '../../src/contract/categories.js';
import { validateRequest } from '../../src/contract/validate.js';
import type { Engine, Result } from '../../src/engine/types.js';

const everyCategory = (amount: number) => Object.fromEntries(CATEGORIES.map((c) => [c, amount])) as never;

function answer<T>(body: unknown, value: T): Result<T> {
  const validation = validateRequest(body);
  return validation.ok ? { ok: true, value } : { ok: false, error: validation.error };
}

export function createFakeEngine(overrides: Partial<Engine> = {}): Engine {
  return {
    modelVersion: 'fake-1',
    priceYear: 2024,
    scoreKey: 'OUTLAY',
    budget: (body) => answer(body, { budget: everyCategory(100) }),
    model: (body) => answer(body, { model: everyCategory(90) }),
    score: (body) => answer(body, { 'Predicted Saving Ability': '391', OUTLAY: '91.2', SAViNGS: '91.2' }),
    modelRanges: () => {
      throw new Error('the fake engine has no ranges');
    },
    explainedScore: () => {
      throw new Error('the fake engine explains nothing');
    },
    household: () => {
      throw new Error('not used by the server');
    },
    ...overrides,
  };
}
