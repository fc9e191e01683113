/** The servers figures 3 and 4 load: Outlay's own `outlay serve` and the stack's ceiling. */
import { join } from 'node:path';
import { OPERATION_PATHS } from '../../src/contract/endpoints.js';
import { type HotFunction, hottestFunctions, readProfiles } from './cpu-profile.js';
import { outlay, withScratch } from './outlay.js';
import { benchScript, OUTLAY_BIN } from './paths.js';
import { freePort, type Service, startService } from './process.js';

const { budget, model, score } = OPERATION_PATHS;
export const ENDPOINTS = { budgets: budget, models: model, scores: score } as const;

/** A typical applicant: full demographics, rent and a savings goal already known. */
export const REQUEST_BODY = JSON.stringify({
  demographics: {
    age: 41,
    gross_annual_income: 85_000,
    household_members: 3,
    is_homeowner: false,
    net_annual_income: 64_000,
    zip: '30301',
  },
  budget: { mortgage_and_rent: 18_000, savings: 3_000 },
});

// High enough that the per-key rate limit never answers 429 during a load test; the limiter still runs.
const UNTHROTTLED_PER_MINUTE = 1_000_000_000;

/** Creates a key allowed on every endpoint and returns it (printed once by `outlay keys create`). */
export async function createApiKey(keysFile: string): Promise<string> {
  const { stdout } = await outlay([
    'keys',
    'create',
    '--scopes',
    'budgets,scores,models',
    '--keys',
    keysFile,
  ]);
  const key = /outlay_[A-Za-z0-9_-]+/.exec(stdout)?.[0];
  if (key === undefined) throw new Error(`no key in the output of outlay keys create:\n${stdout}`);
  return key;
}

/** `nodeFlags` lets a figure run the server under --cpu-prof. */
export async function startOutlayServer(
  keysFile: string,
  nodeFlags: readonly string[] = [],
): Promise<Service> {
  const port = await freePort();
  const args = [
    ...nodeFlags,
    OUTLAY_BIN,
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    // Any free port: several servers run side by side.
    '--admin-port',
    '0',
    '--keys',
    keysFile,
    '--rate-limit',
    String(UNTHROTTLED_PER_MINUTE),
  ];
  return startService(process.execPath, args, port);
}

export async function startCeilingServer(nodeFlags: readonly string[] = []): Promise<Service> {
  const port = await freePort();
  return startService(
    process.execPath,
    [...nodeFlags, benchScript('stack/ceiling-server'), String(port)],
    port,
  );
}

/**
 * Outlay's own server with a constant public route (bench/stack/outlay-ceiling-server.ts), its endpoints
 * unthrottled like `startOutlayServer`'s.
 */
export async function startOutlayCeilingServer(
  keysFile: string,
  nodeFlags: readonly string[] = [],
): Promise<Service> {
  const port = await freePort();
  return startService(
    process.execPath,
    [
      ...nodeFlags,
      benchScript('stack/outlay-ceiling-server'),
      String(port),
      keysFile,
      String(UNTHROTTLED_PER_MINUTE),
    ],
    port,
  );
}

export function urlOf(service: Service, path: string): string {
  return `http://127.0.0.1:${service.port}${path}`;
}

export function keysFileIn(dir: string): string {
  return join(dir, 'keys.json');
}

/** Profiles a server (all its threads) while `drive` loads it; the server is stopped cleanly to write it. */
export function profileServer(
  start: (nodeFlags: readonly string[]) => Promise<Service>,
  drive: (service: Service) => Promise<unknown>,
): Promise<HotFunction[]> {
  return withScratch('server-prof', async (dir) => {
    const service = await start(['--cpu-prof', '--cpu-prof-dir', dir]);
    try {
      await drive(service);
    } finally {
      await service.stop();
    }
    return hottestFunctions(await readProfiles(dir));
  });
}
