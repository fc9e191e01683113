import { mkdir, mkdtemp, readFile, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { digestApiKey } from '../../src/keys/api-key.js';
import { AuditEvent } from '../../src/keys/audit-log.js';
import { createKey, listKeys, revokeKey } from '../../src/keys/manage-keys.js';
import { Compile } from '../../src/vendor/typebox.js';

const auditEvent = Compile(AuditEvent);
const T0 = new Date('2030-01-01T00:00:00Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

let keysFile: string;
beforeEach(async () => {
  keysFile = join(await mkdtemp(join(tmpdir(), 'outlay-audit-')), 'keys.json');
});

async function auditLines(): Promise<AuditEvent[]> {
  const text = await readFile(`${keysFile}.audit.log`, 'utf8');
  const events = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as AuditEvent);
  for (const event of events) expect(auditEvent.Check(event), JSON.stringify(event)).toBe(true);
  return events;
}

describe('file key store audit log', () => {
  it('when a key is created and revoked twice, has one created and one revoked line, mode 0600, no key or hash', async () => {
    const { key, record } = await createKey(keysFile, {
      scopes: ['scores'],
      name: 'app',
      now: T0,
      actor: 'ana',
    });
    await revokeKey(keysFile, record.id, { now: later(1000), actor: 'ben' });
    await revokeKey(keysFile, record.id, { now: later(2000), actor: 'ben' });
    expect(await auditLines()).toEqual([
      {
        event: 'created',
        keyId: record.id,
        name: 'app',
        scopes: ['scores'],
        actor: 'ana',
        at: T0.toISOString(),
        recorded: T0.toISOString(),
      },
      expect.objectContaining({
        event: 'revoked',
        keyId: record.id,
        actor: 'ben',
        at: later(1000).toISOString(),
      }),
    ]);
    const text = await readFile(`${keysFile}.audit.log`, 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain(digestApiKey(key).toString('hex'));
    expect((await stat(`${keysFile}.audit.log`)).mode & 0o777).toBe(0o600);
  });

  it('when a key has expired, the next command records one expired line dated at the expiry, and no more', async () => {
    const { record } = await createKey(keysFile, { scopes: ['budgets'], expires: later(60_000), now: T0 });
    await listKeys(keysFile, { now: later(30_000), actor: 'cron' });
    expect((await auditLines()).map((event) => event.event)).toEqual(['created']);
    await listKeys(keysFile, { now: later(90_000), actor: 'cron' });
    await listKeys(keysFile, { now: later(120_000), actor: 'cron' });
    const events = await auditLines();
    expect(events.map((event) => event.event)).toEqual(['created', 'expired']);
    expect(events[1]).toMatchObject({
      keyId: record.id,
      actor: 'cron',
      at: later(60_000).toISOString(),
      recorded: later(90_000).toISOString(),
    });
    expect(await listKeys(keysFile, { now: later(120_000) })).toEqual([record]);
  });

  it('when a key is revoked before its expiry passes, records no expired line for it', async () => {
    const { record } = await createKey(keysFile, { scopes: ['budgets'], expires: later(60_000), now: T0 });
    await revokeKey(keysFile, record.id, { now: later(1000) });
    await listKeys(keysFile, { now: later(90_000) });
    expect((await auditLines()).map((event) => event.event)).toEqual(['created', 'revoked']);
  });
});

describe('file key store lock', () => {
  it('when a lock was left by a writer that died long ago, takes it over as stale and makes the change', async () => {
    await createKey(keysFile, { scopes: ['budgets'] });
    const abandoned = new Date(Date.now() - 60_000);
    await mkdir(`${keysFile}.lock`);
    await utimes(`${keysFile}.lock`, abandoned, abandoned);
    await createKey(keysFile, { scopes: ['models'] });
    expect((await listKeys(keysFile)).map((key) => key.scopes)).toEqual([['budgets'], ['models']]);
  });
});
