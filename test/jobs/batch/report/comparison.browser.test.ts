/**
 * The report's comparison with a reference run in headless Chromium: a warning, then one row per field
 * with its PSI, a bar against the thresholds and a coloured reading, readable without scrolling sideways.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSummaries } from '../../../../jobs/batch/report/comparison.js';
import { SummaryBuilder } from '../../../../jobs/batch/report/summary.js';
import { writeSummaryAndReport } from '../../../../jobs/batch/report/write.js';
import { CHROMIUM_SKIP_REASON, type ChromiumSession, launchChromium } from '../../../support/chromium.js';
import { META, row } from './fixtures.js';

declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };
declare function getComputedStyle(element: unknown): { backgroundColor: string };

if (CHROMIUM_SKIP_REASON !== null)
  console.warn(`skipping the comparison browser test: ${CHROMIUM_SKIP_REASON}`);

/** 400 households; `raise` multiplies take-home pay and lifts the index with it. */
function summaryOf(raise: number, modelVersion: string) {
  const builder = new SummaryBuilder({ groupBy: [] });
  for (let i = 0; i < 400; i += 1) {
    const netIncome = Math.round((20_000 + ((i * 577) % 120_000)) * raise);
    builder.addScored(
      row({
        netIncome,
        grossIncome: netIncome * 1.25,
        isHomeowner: i % 3 === 0,
        geoLevel: i % 10 === 0 ? 'zip3' : 'zip',
        state: ['CA', 'TX', 'NY'][i % 3]!,
        age: 20 + (i % 60),
        index: Math.round(netIncome / 1000 + 20),
        psa: Math.round(netIncome / 30 - 1500),
        reasonCodes: netIncome < 60_000 ? 'INCOME_BELOW_PEER_SPENDING' : '',
      }),
    );
  }
  return builder.finish({ ...META, modelVersion });
}

describe.skipIf(CHROMIUM_SKIP_REASON !== null)('report.html comparison in headless Chromium', () => {
  let browser: ChromiumSession;
  let dir: string;
  let reportUrl: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'outlay-comparison-'));
    const reference = summaryOf(1, 'model-a');
    const current = summaryOf(1.5, 'model-b');
    const files = await writeSummaryAndReport(dir, 'households', {
      ...current,
      comparison: compareSummaries(current, reference),
    });
    reportUrl = pathToFileURL(files.reportPath).href;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows the warning and a row per field, right after the headline, without sideways scrolling', async () => {
    const page = await browser.context.newPage();
    await page.goto(reportUrl);
    const section = page.locator('section[aria-labelledby="comparison"]');
    expect(await section.locator('.warning').textContent()).toContain(
      'The model version differs: this run model-b, the reference model-a',
    );
    const sectionTop = (await section.boundingBox())!.y;
    const psaTop = (await page.locator('section[aria-labelledby="psa"]').boundingBox())!.y;
    expect(sectionTop).toBeLessThan(psaTop);
    const rows = await section.locator('table.stability tbody tr').allInnerTexts();
    expect(rows.map((text) => text.split('\t')[0])).toEqual([
      'Take-home income',
      'Gross income',
      'Age',
      'Household size',
      'Tenure (owner / renter)',
      'State',
      'Geography level used',
      'Index',
      'Percentile',
      'Score band',
      'PSA (monthly)',
    ]);
    const take = rows[0]!.split('\t');
    expect(take[4]).toBe('shifted');
    expect(
      rows[2]!
        .split('\t')
        .map((cell) => cell.trim())
        .slice(2, 5),
    ).toEqual(['0.0000', '', 'stable']);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.close();
  });

  it('draws each PSI as a bar against the 0.10 and 0.25 marks, and colours the readings apart', async () => {
    const page = await browser.context.newPage();
    await page.goto(reportUrl);
    const table = page.locator('table.stability');
    const fills = await table
      .locator('.psi-bar .fill')
      .evaluateAll((spans) =>
        spans.map(
          (span) =>
            (span as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width,
        ),
      );
    expect(fills).toHaveLength(11);
    expect(fills[0]).toBeGreaterThan(50);
    expect(fills[2]).toBe(0);
    expect(await table.locator('.psi-bar .mark').count()).toBe(22);
    const colour = (reading: string) =>
      table
        .locator(`.reading.${reading}`)
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    const [stable, shifted] = await Promise.all([colour('stable'), colour('shifted')]);
    expect(stable).toBe('rgb(30, 132, 73)');
    expect(shifted).toBe('rgb(176, 58, 46)');
    await page.close();
  });
});
