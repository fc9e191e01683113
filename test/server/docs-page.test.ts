/**
 * GET /docs renders the API reference in headless Chromium, from assets served by this server only, and
 * its "Try it out" sends the documented example with a key and gets a 200.
 * Needs a Chromium binary (CI installs it with apt); the test is skipped with a message without one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_SKIP_REASON, launchChromium } from '../support/chromium.js';
import { createFakeEngine } from './fake-engine.js';
import { startTestServer, type TestServer } from './helpers.js';

if (CHROMIUM_SKIP_REASON !== null) process.stderr.write(`docs-page.test: skipped, ${CHROMIUM_SKIP_REASON}\n`);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ engine: createFakeEngine() });
});
afterAll(() => server.close());

describe.skipIf(CHROMIUM_SKIP_REASON !== null)('GET /docs in headless Chromium', () => {
  it('when opened, renders the three operations from /openapi.json, loading nothing from elsewhere', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));

      const response = await page.goto(`${server.url}/docs`);
      expect(response?.status()).toBe(200);
      await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });

      expect(await page.locator('.info .title').textContent()).toContain('Outlay API');
      const paths = await page.locator('.opblock-summary-path').allTextContents();
      for (const path of [
        '/v1.0/budgets/generate',
        '/v1.0/scores/generate',
        '/v1.0/demographics/models/generate',
      ]) {
        expect(paths.map((text) => text.replace(/\u200b/g, ''))).toContain(path);
      }
      expect(pageErrors).toEqual([]);
      expect(requested.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:'))).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);

  it('when "Try it out" is executed with a key, the prefilled example request answers 200', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      await page.goto(`${server.url}/docs`);
      await page.click('.btn.authorize', { timeout: 30_000 });
      await page.fill('.modal-ux input', server.keys.all);
      await page.click('.modal-ux .auth-btn-wrapper .btn.authorize');
      await page.click('.modal-ux .btn-done');
      const operation = page.locator('#operations-Operations-generateBudget');
      await operation.locator('.opblock-summary').click();
      // Try it out is on from the start (uiConfig.tryItOutEnabled), with the example as the body.
      await operation.locator('.btn.execute').click();
      const status = operation.locator('.live-responses-table tbody .response-col_status').first();
      await status.waitFor({ timeout: 30_000 });
      expect((await status.textContent())?.trim()).toMatch(/^200/);
    } finally {
      await browser.close();
    }
  }, 180_000);
});
