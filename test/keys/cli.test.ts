/**
 * `outlay keys create|list|revoke` through the real binary (bin/outlay.js runs dist/, so run
 * `npm run build` first; `npm test` does).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isWellFormedApiKey } from '../../src/keys/api-key.js';
import { PACKAGE_ROOT } from '../../src/paths.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'outlay.js');
const run = promisify(execFile);

async function outlay(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, OUTLAY_KEYS_FILE: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let keysFile: string;
beforeAll(() => {
  if (!existsSync(join(PACKAGE_ROOT, 'dist', 'jobs', 'cli', 'main.js')))
    throw new Error('run `npm run build` first');
});
beforeEach(async () => {
  keysFile = join(await mkdtemp(join(tmpdir(), 'outlay-cli-keys-')), 'keys.json');
});

describe('outlay keys create', () => {
  it('when given scopes, prints only the new key on stdout and stores only its hash, mode 0600', async () => {
    const result = await outlay(
      'keys',
      'create',
      '--scopes',
      'budgets,scores',
      '--name',
      'mobile app',
      '--keys',
      keysFile,
    );
    expect(result.code).toBe(0);
    const key = result.stdout.trim();
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(result.stderr).toMatch(/cannot be shown again/);
    const text = await readFile(keysFile, 'utf8');
    expect(text).not.toContain(key);
    expect((await stat(keysFile)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(text).keys[0]).toMatchObject({ name: 'mobile app', scopes: ['budgets', 'scores'] });
  });

  it.each([
    ['an unknown scope', ['--scopes', 'admin'], /unknown scope 'admin'/],
    ['a past expiry', ['--scopes', 'budgets', '--expires', '2000-01-01'], /not in the future/],
    ['an unparsable expiry', ['--scopes', 'budgets', '--expires', 'soon'], /not a date/],
    ['a zero rate limit', ['--scopes', 'budgets', '--rate-limit', '0'], /positive integer/],
  ])('when given %s, exits 1 with a message and writes nothing', async (_case, args, message) => {
    const result = await outlay('keys', 'create', ...args, '--keys', keysFile);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(existsSync(keysFile)).toBe(false);
  });
});

describe('outlay keys list and revoke', () => {
  it('when keys exist, lists id, name, scopes, limit, dates; revoke marks one revoked', async () => {
    const first = (
      await outlay('keys', 'create', '--scopes', 'budgets', '--name', 'one', '--keys', keysFile)
    ).stdout.trim();
    await outlay(
      'keys',
      'create',
      '--scopes',
      'models',
      '--rate-limit',
      '5',
      '--expires',
      '2099-06-30',
      '--keys',
      keysFile,
    );
    const listed = JSON.parse((await outlay('keys', 'list', '--json', '--keys', keysFile)).stdout);
    expect(listed).toHaveLength(2);
    expect(listed[1]).toMatchObject({
      scopes: ['models'],
      rateLimit: 5,
      expires: '2099-06-30T00:00:00.000Z',
      revoked: null,
    });
    expect(JSON.stringify(listed)).not.toContain('sha256');

    const table = (await outlay('keys', 'list', '--keys', keysFile)).stdout;
    expect(table.split('\n')[0]).toMatch(/^ID\s+NAME\s+SCOPES\s+RATE_LIMIT\s+CREATED\s+EXPIRES\s+REVOKED$/);
    expect(table).not.toContain(first);

    const revoked = await outlay('keys', 'revoke', listed[0].id, '--keys', keysFile);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked ${listed[0].id}`);
    const after = JSON.parse((await outlay('keys', 'list', '--json', '--keys', keysFile)).stdout);
    expect(after[0].revoked).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(after[1].revoked).toBeNull();
  });

  it('when the id is unknown, revoke exits 1 naming it', async () => {
    await outlay('keys', 'create', '--scopes', 'budgets', '--keys', keysFile);
    const result = await outlay('keys', 'revoke', 'key_000000000000', '--keys', keysFile);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('key_000000000000');
  });
});
