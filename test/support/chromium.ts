/**
 * Headless Chromium for browser tests, launched one way everywhere so the flags are not copy-pasted.
 * The binary is the system one (CI installs it with apt; OUTLAY_CHROMIUM overrides the path); tests skip
 * with `CHROMIUM_SKIP_REASON` when it is missing.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.OUTLAY_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_SKIP_REASON: string | null = existsSync(CHROMIUM_PATH)
  ? null
  : `no Chromium at ${CHROMIUM_PATH} (install it with 'apt-get install chromium' or set OUTLAY_CHROMIUM)`;

// No sandbox: tests run as root in containers. The rest keeps the browser from calling home during a test.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ChromiumSession {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** A browser with a fresh profile directory, removed again by `close()`. */
export async function launchChromium(): Promise<ChromiumSession> {
  const profile = await mkdtemp(join(tmpdir(), 'outlay-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1200, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
