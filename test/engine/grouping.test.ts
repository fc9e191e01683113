/**
 * Grouped inputs and the transformer, as properties over generated households, groups and aliases,
 * against the shipped engine (or the fake model in a checkout without the artifact).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, CATEGORY_COUNT, type Category } from '../../src/contract/categories.js';
import type { GroupedInput, Transformer } from '../../src/contract/schemas.js';
import { groupShares, statedWithGroups } from '../../src/engine/grouping.js';
import { aliasedAmounts } from '../../src/engine/transform.js';
import type { Engine, LocalEngine } from '../../src/engine/types.js';
import { knownZip5 } from '../support/known-zips.js';
import { engineUnderTest } from './engine-under-test.js';

const { engine, label } = await engineUnderTest();

const demographics = fc.record({
  zip: knownZip5,
  net_annual_income: fc.integer({ min: 1_000, max: 400_000 }),
  age: fc.integer({ min: 15, max: 120 }),
  household_members: fc.integer({ min: 1, max: 20 }),
});

/** A total in whole dollars or in cents, as the contract accepts them. */
const total = fc.oneof(
  fc.integer({ min: 0, max: 50_000 }),
  fc.integer({ min: 0, max: 5_000_000 }).map((cents) => cents / 100),
);

/** Up to four disjoint groups: the categories dealt out in random order, some of them into groups. */
const groups = fc
  .tuple(
    fc.shuffledSubarray([...CATEGORIES], { minLength: 1 }),
    fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 4 }),
    fc.array(total, { minLength: 4, maxLength: 4 }),
  )
  .map(([categories, sizes, values]) => {
    const dealt: GroupedInput[] = [];
    let next = 0;
    sizes.forEach((size, g) => {
      const items = categories.slice(next, next + size);
      next += size;
      if (items.length > 0) dealt.push({ items, value: values[g]! });
    });
    return dealt;
  });

const cents = (amount: number) => Math.round(amount * 100);

function accepted<T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.error)}`);
  return result.value;
}

const budgetOf = (e: Engine, body: object) => accepted(e.budget(body)).budget;

describe(`grouped inputs, against ${label}`, () => {
  it('groupShares over generated groups and weights: the shares add up to the total exactly, in cents', () => {
    fc.assert(
      fc.property(
        groups,
        // Weights as the model gives them: 0, or at least a cent a year.
        fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0.01, max: 20_000, noNaN: true })), {
          minLength: CATEGORY_COUNT,
          maxLength: CATEGORY_COUNT,
        }),
        (dealt, weights) => {
          for (const group of dealt) {
            const shares = groupShares(group, Float64Array.from(weights));
            const amounts = group.items.map((item) => shares[item]!);
            for (const amount of amounts) expect(amount / 0.01).toBeCloseTo(cents(amount), 6);
            expect(amounts.reduce((sum, amount) => sum + cents(amount), 0)).toBe(cents(group.value));
            if (Number.isInteger(group.value))
              for (const amount of amounts) expect(Number.isInteger(amount)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('groupShares when the model gives the group 0: shares the total equally, earlier categories first', () => {
    const shares = groupShares(
      { items: ['savings', 'other_debt_payments'], value: 1001 },
      new Float64Array(CATEGORY_COUNT),
    );
    expect(shares).toEqual({ savings: 501, other_debt_payments: 500 });
  });

  it('budget with generated groups: answers as if the shares were stated, whole totals returned exactly', () => {
    fc.assert(
      fc.property(demographics, groups, (household, dealt) => {
        const grouped = budgetOf(engine, { demographics: household, grouped_inputs: dealt });
        const stated = statedWithGroups(undefined, dealt, modeledOf(household));
        expect(grouped).toEqual(budgetOf(engine, { demographics: household, budget: stated }));
        for (const group of dealt.filter(({ value }) => Number.isInteger(value)))
          expect(group.items.reduce((sum, item) => sum + grouped[item], 0)).toBe(group.value);
      }),
      { numRuns: 200 },
    );
  });
});

/** The engine's unrounded model amounts for a household, by which it shares group totals. */
function modeledOf(household: object): Float64Array {
  const figures = accepted((engine as LocalEngine).householdFigures({ demographics: household }));
  return Float64Array.from(figures.modeled);
}

/** A transformer over a few aliases: every category given one of them. */
const transformer = fc
  .array(fc.constantFrom('Housing', 'Food', 'Transport', 'Other', '2024', '__proto__'), {
    minLength: CATEGORY_COUNT,
    maxLength: CATEGORY_COUNT,
  })
  .map((aliases) => Object.fromEntries(CATEGORIES.map((c, i) => [c, aliases[i]!])) as Transformer);

describe(`the transformer, against ${label}`, () => {
  it('aliasedAmounts over generated budgets and aliases: each alias is the sum of its categories, all kept', () => {
    fc.assert(
      fc.property(demographics, transformer, (household, aliases) => {
        const budget = budgetOf(engine, { demographics: household });
        const aliased = aliasedAmounts(budget, aliases);
        const expected = new Map<string, number>();
        for (const c of CATEGORIES)
          expected.set(aliases[c], (expected.get(aliases[c]) ?? 0) + budget[c as Category]);
        expect(Object.keys(aliased).sort()).toEqual([...expected.keys()].sort());
        for (const [alias, sum] of expected)
          expect(Object.getOwnPropertyDescriptor(aliased, alias)?.value).toBe(sum);
        expect(Object.getPrototypeOf(aliased)).toBe(Object.prototype);
      }),
      { numRuns: 200 },
    );
  });
});
