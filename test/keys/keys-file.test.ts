import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { digestApiKey } from '../../src/keys/api-key.js';
import { readKeysFile } from '../../src/keys/keys-file.js';
import { createKey, listKeys, revokeKey } from '../../src/keys/manage-keys.js';

let dir: string;
let keysFile: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'outlay-keys-'));
  keysFile = join(dir, 'keys.json');
});

describe('createKey', () => {
  it('when the file does not exist, creates it with mode 0600 holding the hash and never the key', async () => {
    const { key, record } = await createKey(keysFile, { scopes: ['budgets', 'scores'], name: 'app' });
    const text = await readFile(keysFile, 'utf8');
    expect(text).not.toContain(key);
    expect(text).toContain(digestApiKey(key).toString('hex'));
    expect((await stat(keysFile)).mode & 0o777).toBe(0o600);
    expect(record).toMatchObject({
      name: 'app',
      scopes: ['budgets', 'scores'],
      rateLimit: null,
      revoked: null,
    });
    expect(record).not.toHaveProperty('sha256');
  });

  it('when keys are added, keeps the earlier ones and leaves no temporary or lock file behind', async () => {
    await createKey(keysFile, { scopes: ['budgets'] });
    await createKey(keysFile, {
      scopes: ['models'],
      rateLimit: 10,
      expires: new Date('2099-01-01T00:00:00Z'),
    });
    const keys = await listKeys(keysFile);
    expect(keys.map((key) => key.scopes)).toEqual([['budgets'], ['models']]);
    expect(keys[1]).toMatchObject({ rateLimit: 10, expires: '2099-01-01T00:00:00.000Z' });
    expect((await readdir(dir)).sort()).toEqual(['keys.json', 'keys.json.audit.log']);
  });
});

describe('revokeKey', () => {
  it('when the id exists, marks it revoked and keeps the first revocation date on a repeat', async () => {
    const { record } = await createKey(keysFile, { scopes: ['budgets'] });
    const first = await revokeKey(keysFile, record.id, { now: new Date('2030-01-01T00:00:00Z') });
    const again = await revokeKey(keysFile, record.id, { now: new Date('2031-01-01T00:00:00Z') });
    expect(first.revoked).toBe('2030-01-01T00:00:00.000Z');
    expect(again.revoked).toBe('2030-01-01T00:00:00.000Z');
  });

  it('when the id is unknown, throws naming it', async () => {
    await createKey(keysFile, { scopes: ['budgets'] });
    await expect(revokeKey(keysFile, 'key_000000000000')).rejects.toThrow(/key_000000000000/);
  });
});

describe('readKeysFile', () => {
  it.each([
    ['not JSON', '{', /not valid JSON/],
    [
      'an unknown scope',
      '{"version":1,"keys":[{"id":"key_000000000000","name":"","sha256":"' +
        '0'.repeat(64) +
        '","scopes":["admin"],"rateLimit":null,"created":"2020-01-01T00:00:00Z","expires":null,"revoked":null}]}',
      /keys\/0\/scopes\/0/,
    ],
    ['a wrong version', '{"version":2,"keys":[]}', /version/],
  ])('when the file holds %s, throws naming the problem', async (_case, text, message) => {
    await writeFile(keysFile, text);
    await expect(readKeysFile(keysFile)).rejects.toThrow(message);
  });
});
