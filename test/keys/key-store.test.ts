import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/keys/api-key.js';
import type { KeyStore } from '../../src/keys/key-store.js';
import { createKey, revokeKey } from '../../src/keys/manage-keys.js';
import { openKeyStore } from '../../src/keys/open-key-store.js';
import { captureLogs } from '../server/helpers.js';
import { eventually } from './eventually.js';

let keysFile: string;
let store: KeyStore | undefined;
beforeEach(async () => {
  keysFile = join(await mkdtemp(join(tmpdir(), 'outlay-store-')), 'keys.json');
});
afterEach(() => store?.close());

describe('openKeyStore authenticate', () => {
  it('when presented a known, unexpired, unrevoked key, returns its id, scopes and limit', async () => {
    const { key, record } = await createKey(keysFile, { scopes: ['scores'], rateLimit: 5 });
    store = await openKeyStore({ path: keysFile, logger: captureLogs().logger });
    const found = store.authenticate(key, Date.now());
    expect(found?.id).toBe(record.id);
    expect([...(found?.scopes ?? [])]).toEqual(['scores']);
    expect(found?.rateLimit).toBe(5);
  });

  it('when presented an unknown, malformed, revoked or expired key, returns undefined', async () => {
    const revoked = await createKey(keysFile, { scopes: ['scores'] });
    await revokeKey(keysFile, revoked.record.id);
    const expiring = await createKey(keysFile, {
      scopes: ['scores'],
      expires: new Date(Date.now() + 60_000),
    });
    store = await openKeyStore({ path: keysFile, logger: captureLogs().logger });
    expect(store.authenticate(generateApiKey(), Date.now())).toBeUndefined();
    expect(store.authenticate('outlay_nonsense', Date.now())).toBeUndefined();
    expect(store.authenticate(revoked.key, Date.now())).toBeUndefined();
    expect(store.authenticate(expiring.key, Date.now())).toBeDefined();
    expect(store.authenticate(expiring.key, Date.now() + 120_000)).toBeUndefined();
  });

  it('when the keys file is missing at start, rejects (the server must not start without keys)', async () => {
    await expect(openKeyStore({ path: keysFile, logger: captureLogs().logger })).rejects.toThrow(/ENOENT/);
  });
});

describe('openKeyStore reload', () => {
  it('when a key is revoked in the file, stops accepting it within seconds, without reopening', async () => {
    const { key, record } = await createKey(keysFile, { scopes: ['budgets'] });
    store = await openKeyStore({ path: keysFile, logger: captureLogs().logger });
    expect(store.authenticate(key, Date.now())).toBeDefined();
    await revokeKey(keysFile, record.id);
    await eventually(() => expect(store?.authenticate(key, Date.now())).toBeUndefined());
  });

  it('when a key is added to the file, accepts it within seconds', async () => {
    await createKey(keysFile, { scopes: ['budgets'] });
    store = await openKeyStore({ path: keysFile, logger: captureLogs().logger, pollIntervalMs: 100 });
    const added = await createKey(keysFile, { scopes: ['models'] });
    await eventually(() => expect(store?.authenticate(added.key, Date.now())?.id).toBe(added.record.id));
  });

  it('when the file becomes corrupt, keeps the previous keys and logs an error', async () => {
    const { key } = await createKey(keysFile, { scopes: ['budgets'] });
    const { logger, logs } = captureLogs();
    store = await openKeyStore({ path: keysFile, logger, pollIntervalMs: 100 });
    await writeFile(keysFile, '{"version":1,"keys":[');
    await eventually(() => expect(logs.records().some((line) => line.level === 50)).toBe(true));
    expect(store.authenticate(key, Date.now())).toBeDefined();
    expect(logs.lines.join('\n')).not.toContain(key);
  });
});
