/**
 * Take-home pay estimated from gross income (src/engine/take-home.ts): the committed table rebuilds to the
 * same bytes from data/population/households.csv, and the estimate never falls as gross income rises and
 * never passes it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTakeHomeTable } from '../../jobs/extract/take-home.js';
import { estimateTakeHome, withEstimatedTakeHome } from '../../src/engine/take-home.js';
import { PACKAGE_ROOT } from '../../src/paths.js';

describe('take-home pay estimated from gross income', () => {
  it('rebuilding data/take-home/ce-take-home.json from data/population/households.csv gives the committed bytes', async () => {
    const table = await buildTakeHomeTable(join(PACKAGE_ROOT, 'data', 'population', 'households.csv'));
    const committed = await readFile(join(PACKAGE_ROOT, 'data', 'take-home', 'ce-take-home.json'), 'utf8');
    expect(`${JSON.stringify(table, null, 2)}\n`).toBe(committed);
  });

  it('property: for any size, more gross income never estimates less take-home, and take-home never exceeds gross', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
        (gross, more, members) => {
          const net = estimateTakeHome(gross, members);
          expect(net).toBeLessThanOrEqual(gross);
          expect(estimateTakeHome(gross + more, members)).toBeGreaterThanOrEqual(net);
        },
      ),
    );
  });

  it('a body without the option, or with take-home given, is left as it is; one with the option and no gross income names gross_annual_income', () => {
    const plain = { demographics: { zip: '86001', gross_annual_income: 60000 } };
    expect(withEstimatedTakeHome(plain)).toEqual({ ok: true, body: plain });
    const given = {
      ...plain,
      demographics: { ...plain.demographics, net_annual_income: 50000 },
      options: { take_home: 'estimate' },
    };
    expect(withEstimatedTakeHome(given)).toEqual({ ok: true, body: given });
    const noGross = withEstimatedTakeHome({
      demographics: { zip: '86001' },
      options: { take_home: 'estimate' },
    });
    expect(noGross.ok).toBe(false);
    expect(!noGross.ok && noGross.error.errors[0]!.path).toBe('/demographics/gross_annual_income');
  });
});
