/**
 * GET /docs renders the API reference in headless Chromium, from assets served by this server only.
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
  });
});
