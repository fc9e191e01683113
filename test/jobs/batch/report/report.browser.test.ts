import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SummaryBuilder } from '../../../../jobs/batch/report/summary.js';
import { writeSummaryAndReport } from '../../../../jobs/batch/report/write.js';
import { CHROMIUM_SKIP_REASON, type ChromiumSession, launchChromium } from '../../../support/chromium.js';
import { META, row } from './fixtures.js';

// Browser globals used inside page.evaluate callbacks (the project compiles without the DOM library, on purpose).
interface Canvas2d {
  drawImage(image: unknown, x: number, y: number): void;
  getImageData(x: number, y: number, width: number, height: number): { data: Uint8ClampedArray };
}
declare const document: {
  querySelector(
    selector: 'canvas',
  ): { width: number; height: number; getContext(kind: '2d'): Canvas2d | null } | null;
};
declare const Image: new () => { src: string; width: number; height: number; decode(): Promise<void> };
type Measurable = {
  getBBox(): { height: number };
  getBoundingClientRect(): { width: number; height: number };
};

if (CHROMIUM_SKIP_REASON !== null) console.warn(`skipping the report browser test: ${CHROMIUM_SKIP_REASON}`);

/**
 * 600 households with a spread of PSA (some negative), scores, indices, percentiles, reasons and flags, in
 * three states; 10 of them single persons, a cohort too small to read.
 */
function sampleSummary() {
  const builder = new SummaryBuilder({ groupBy: [] });
  for (let i = 0; i < 600; i += 1) {
    builder.addScored(
      row({
        psa: ((i * 37) % 1500) - 400,
        score: ((i * 13) % 1000) / 10,
        savingsScore: ((i * 7) % 1000) / 10,
        state: ['CA', 'TX', 'NY'][i % 3]!,
        age: 18 + (i % 70),
        householdType: i < 10 ? 'single_person' : undefined,
        index: (((i * 17) % 2400) - 600) / 10,
        percentile: ((i * 29) % 1001) / 10,
        reasonCodes: ['', 'INCOME_BELOW_PEER_SPENDING', 'HIGH_FOOD_HOME;OTHER_DEBT_PAYMENTS'][i % 3]!,
        expenseFlags: i % 5 === 0 ? 'BELOW_PEERS:food_home' : '',
      }),
    );
  }
  builder.addRejected('/demographics/zip: must be a 5-digit ZIP code or ZIP+4 (12345 or 12345-6789)');
  return builder.finish(META);
}

/** Non-white pixels and distinct colours of a PNG, counted by drawing it on a canvas in a blank page. */
async function pixelStats(
  page: Page,
  png: Buffer,
): Promise<{ nonWhite: number; total: number; colours: number }> {
  await page.setContent('<canvas></canvas>');
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.querySelector('canvas')!;
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    let nonWhite = 0;
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      if (r < 240 || g < 240 || b < 240) nonWhite += 1;
      colours.add((r << 16) | (g << 8) | b);
    }
    return { nonWhite, total: data.length / 4, colours: colours.size };
  }, png.toString('base64'));
}

describe.skipIf(CHROMIUM_SKIP_REASON !== null)('report.html in headless Chromium', () => {
  let browser: ChromiumSession;
  let dir: string;
  let reportUrl: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'outlay-report-'));
    const files = await writeSummaryAndReport(dir, 'households', sampleSummary());
    reportUrl = pathToFileURL(files.reportPath).href;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('when opened, requests nothing but the file itself and logs no errors', async () => {
    const page = await browser.context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(reportUrl);
    expect(requests).toEqual([reportUrl]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws the PSA histogram and score-band chart with visible, non-blank marks', async () => {
    const page = await browser.context.newPage();
    await page.goto(reportUrl);
    for (const id of ['psa-histogram', 'score-bands', 'index-histogram', 'percentile-deciles']) {
      const chart = page.locator(`svg[aria-labelledby^="${id}-title"]`);
      const box = await chart.boundingBox();
      expect(box?.width, id).toBeGreaterThan(300);
      expect(box?.height, id).toBeGreaterThan(150);
      const bars = await chart
        .locator('rect')
        .evaluateAll(
          (rects) => rects.filter((r) => (r as unknown as Measurable).getBBox().height > 1).length,
        );
      expect(bars, id).toBeGreaterThan(5);
      const stats = await pixelStats(await browser.context.newPage(), await chart.screenshot());
      // Bars, gridlines and labels: well above a blank or single-colour image.
      expect(stats.nonWhite / stats.total, id).toBeGreaterThan(0.05);
      expect(stats.colours, id).toBeGreaterThan(10);
    }
    await page.close();
  });

  it('draws an inline chart in every cohort row', async () => {
    const page = await browser.context.newPage();
    await page.goto(reportUrl);
    const strips = await page.locator('table.cohorts svg.strip').evaluateAll((svgs) =>
      svgs.map((svg) => {
        const box = (svg as unknown as Measurable).getBoundingClientRect();
        return box.width * box.height;
      }),
    );
    // 3 states + 7 age bands + 1 income band + 1 household size + 2 household types, three strips each.
    expect(strips).toHaveLength(42);
    expect(strips.every((area) => area > 0)).toBe(true);
    await page.close();
  });

  it('explains the scale, lists reason and flag frequencies, and marks the cohort of 10 too small to read', async () => {
    const page = await browser.context.newPage();
    await page.goto(reportUrl);
    const scale = (await page.locator('section[aria-labelledby="index"]').textContent()) ?? '';
    expect(scale).toContain('80 is break-even');
    expect(scale).toContain('one point is 1\u00a0% of take-home pay');
    expect(scale).toContain('clamped to 0–100');
    const reasons = await page.locator('table.frequencies').first().locator('tbody tr').allInnerTexts();
    expect(reasons.map((text) => text.split('\t').slice(0, 2))).toEqual([
      ['HIGH_FOOD_HOME', '200'],
      ['INCOME_BELOW_PEER_SPENDING', '200'],
      ['OTHER_DEBT_PAYMENTS', '200'],
    ]);
    const flags = await page.locator('table.frequencies').nth(1).locator('tbody tr').allInnerTexts();
    expect(flags.map((text) => text.split('\t').slice(0, 2))).toEqual([['BELOW_PEERS:food_home', '120']]);
    const marked = await page.locator('table.cohorts th:has(.too-small)').allInnerTexts();
    expect(marked).toEqual(['single_person too small to read (under 30 households)']);
    await page.close();
  });
});
