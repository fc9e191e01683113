import { describe, expect, it } from 'vitest';
import { CATEGORIES, CATEGORY_COUNT, CATEGORY_INDEX } from '../../src/contract/categories.js';
import type { GivenBudget } from '../../src/contract/schemas.js';
import { readGivenBudget } from '../../src/engine/given.js';

describe('readGivenBudget', () => {
  it('flags exactly the current request’s given categories after any sequence of requests (500 generated budgets)', () => {
    const amounts = new Float64Array(CATEGORY_COUNT);
    const isGiven = new Uint8Array(CATEGORY_COUNT).fill(1);
    const read = (budget: GivenBudget | undefined) => readGivenBudget(budget, amounts, isGiven);
    let seed = 99;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 500; i++) {
      const budget: Record<string, number | undefined> = {};
      for (const category of CATEGORIES) {
        const draw = next();
        if (draw < 0.05) budget[category] = Math.round(next() * 10_000) + 0.5;
        else if (draw < 0.07) budget[category] = undefined;
      }
      const sent = next() < 0.1 ? undefined : (budget as GivenBudget);
      const whole = read(sent);
      const flagged = CATEGORIES.filter((c) => isGiven[CATEGORY_INDEX[c]] === 1);
      const given = sent === undefined ? [] : CATEGORIES.filter((c) => budget[c] !== undefined);
      expect(flagged).toEqual(given);
      // Halves round away from zero: x.5 → x + 1.
      expect(whole).toBe(given.reduce((sum, c) => sum + Math.floor(budget[c]!) + 1, 0));
      for (const c of given) expect(amounts[CATEGORY_INDEX[c]]).toBe(budget[c]);
    }
  });

  it('clears the flags it finds set (a reused buffer starts with none given)', () => {
    const isGiven = new Uint8Array(CATEGORY_COUNT).fill(1);
    expect(readGivenBudget(undefined, new Float64Array(CATEGORY_COUNT), isGiven)).toBe(0);
    expect(isGiven.every((flag) => flag === 0)).toBe(true);
  });
});
