/**
 * `outlay keys` changes racing each other, through the real binary (bin/outlay.js runs dist/: `npm run
 * build` first; `npm test` does), on a keys file and on a real redis-server. The keys are then presented
 * to a server built on the same store, answering through Fastify's inject.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isWellFormedApiKey } from '../../src/keys/api-key.js';
import { AuditEvent } from '../../src/keys/audit-log.js';
import type { KeyStoreOptions } from '../../src/keys/key-store.js';
import { openKeyStore } from '../../src/keys/open-key-store.js';
import { REDIS_KEYS } from '../../src/keys/redis-keys.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { buildServer } from '../../src/server/build-server.js';
import { DEFAULT_SERVER_CONFIG } from '../../src/server/config.js';
import { Compile } from '../../src/vendor/typebox.js';
import { outcomeOf, spawnOutlay } from '../reliability/support/outlay-cli.js';
import { createFakeEngine } from '../server/fake-engine.js';
import { captureLogs } from '../server/helpers.js';
import { sizedForRun } from '../support/full-tests.js';
import {
  type RunningRedis,
  redisServerInstalled,
  SKIP_WITHOUT_REDIS,
  startRedisServer,
} from './redis-server.js';

/**
 * 20 in CI's first pass (OUTLAY_FULL_TESTS=1, README), 8 in a maintainer's run: each is a Node process of
 * its own, and 8 writers starting together on two cores still contend for the store.
 */
const CONCURRENT_CREATES = sizedForRun(20, 8);
/** 22 Node processes starting at once on a shared 2-core machine: a bound on a stuck run, not a speed. */
const RACE_TIMEOUT_MS = 600_000;
const BUDGETS = '/v1.0/budgets/generate';
const VALID = { demographics: { zip: '12345', net_annual_income: 50_000 } };
/** Neither variable may name a second store behind the test's back. */
const ENV = { OUTLAY_KEYS_FILE: '', OUTLAY_REDIS_URL: '' };
const auditEvent = Compile(AuditEvent);

const outlay = (args: string[]) => outcomeOf(spawnOutlay(args, { env: ENV }));

const idOf = (stderr: string): string => /Created (key_[0-9a-f]{12})/.exec(stderr)?.[1] ?? 'none';

interface Race {
  readonly revokedId: string;
  readonly revokedKey: string;
  /** Key id → key, for the keys the concurrent creates printed. */
  readonly created: Map<string, string>;
}

/** One key, then CONCURRENT_CREATES creates and the revocation of that key, all at once. */
async function raceCreatesAndRevoke(store: string[]): Promise<Race> {
  const first = await outlay(['keys', 'create', '--scopes', 'budgets', '--name', 'to revoke', ...store]);
  expect(first.code, first.stderr).toBe(0);
  const revokedId = idOf(first.stderr);
  const racing = [
    ...Array.from({ length: CONCURRENT_CREATES }, (_, i) =>
      spawnOutlay(
        ['keys', 'create', '--scopes', 'budgets', '--name', `client ${i}`, '--actor', 'ci', ...store],
        {
          env: ENV,
        },
      ),
    ),
    spawnOutlay(['keys', 'revoke', revokedId, '--actor', 'ci', ...store], { env: ENV }),
  ];
  const outcomes = await Promise.all(racing.map((child) => outcomeOf(child)));
  for (const outcome of outcomes) expect(outcome.code, outcome.stderr).toBe(0);
  expect(outcomes.at(-1)?.stdout).toContain(`Revoked ${revokedId}`);
  const created = new Map(
    outcomes.slice(0, -1).map((outcome) => [idOf(outcome.stderr), outcome.stdout.trim()]),
  );
  return { revokedId, revokedKey: first.stdout.trim(), created };
}

async function expectAllListed(store: string[], race: Race): Promise<void> {
  const listing = await outlay(['keys', 'list', '--json', ...store]);
  expect(listing.code, listing.stderr).toBe(0);
  const listed = JSON.parse(listing.stdout) as { id: string; revoked: string | null }[];
  expect(listed).toHaveLength(CONCURRENT_CREATES + 1);
  expect(new Set(listed.map((key) => key.id))).toEqual(new Set([race.revokedId, ...race.created.keys()]));
  expect(listed.filter((key) => key.revoked !== null).map((key) => key.id)).toEqual([race.revokedId]);
}

/** Every created key opens the budgets route of a server on the store; the revoked key is refused. */
async function expectServerAnswers(options: KeyStoreOptions, race: Race): Promise<void> {
  const keyStore = await openKeyStore(options);
  const app = buildServer({
    // Load shedding is not the subject, and 22 processes starting at once can starve this one: 0 turns it off.
    config: { ...DEFAULT_SERVER_CONFIG, maxEventLoopDelayMs: 0 },
    engine: createFakeEngine(),
    keyStore,
    logger: captureLogs().logger,
  });
  try {
    const statusWith = async (key: string) =>
      (await app.inject({ method: 'POST', url: BUDGETS, payload: VALID, headers: { 'x-api-key': key } }))
        .statusCode;
    for (const key of race.created.values()) {
      expect(isWellFormedApiKey(key)).toBe(true);
      expect(await statusWith(key)).toBe(200);
    }
    expect(await statusWith(race.revokedKey)).toBe(403);
  } finally {
    await app.close();
    keyStore.close();
  }
}

/** One valid event per change, in any order the race produced, naming ids and never a key. */
function expectAudited(lines: string[], race: Race): void {
  const events = lines.map((line) => JSON.parse(line) as AuditEvent);
  for (const event of events) expect(auditEvent.Check(event), JSON.stringify(event)).toBe(true);
  const created = events.filter((event) => event.event === 'created').map((event) => event.keyId);
  expect(new Set(created)).toEqual(new Set([race.revokedId, ...race.created.keys()]));
  expect(created).toHaveLength(CONCURRENT_CREATES + 1);
  const revoked = events.filter((event) => event.event === 'revoked');
  expect(revoked).toMatchObject([{ keyId: race.revokedId, actor: 'ci', name: 'to revoke' }]);
  expect(events).toHaveLength(CONCURRENT_CREATES + 2);
  const text = lines.join('\n');
  for (const key of [race.revokedKey, ...race.created.values()]) expect(text).not.toContain(key);
}

beforeAll(() => {
  if (!existsSync(join(PACKAGE_ROOT, 'dist', 'jobs', 'cli', 'main.js')))
    throw new Error('run `npm run build` first');
});

describe('outlay keys on a keys file, concurrently', () => {
  let keysFile: string;
  beforeEach(async () => {
    keysFile = join(await mkdtemp(join(tmpdir(), 'outlay-race-')), 'keys.json');
  });

  it(
    `when ${CONCURRENT_CREATES} creates and a revoke run at once, stores all ${CONCURRENT_CREATES} usable keys, refuses the revoked one, audits each`,
    async () => {
      const store = ['--keys', keysFile];
      const race = await raceCreatesAndRevoke(store);
      await expectAllListed(store, race);
      await expectServerAnswers({ path: keysFile, logger: captureLogs().logger }, race);
      const log = await readFile(`${keysFile}.audit.log`, 'utf8');
      expect(log).not.toMatch(/[0-9a-f]{64}/);
      expectAudited(log.trimEnd().split('\n'), race);
    },
    RACE_TIMEOUT_MS,
  );
});

describe(`outlay keys on a redis-server, concurrently${SKIP_WITHOUT_REDIS}`, () => {
  let redis: RunningRedis;
  let client: Redis;
  beforeAll(async () => {
    if (!redisServerInstalled) return;
    redis = await startRedisServer();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    if (!redisServerInstalled) return;
    await client.quit();
    await redis.stop();
  });
  beforeEach(async () => {
    if (redisServerInstalled) await client.flushdb();
  });

  it.skipIf(!redisServerInstalled)(
    `when ${CONCURRENT_CREATES} creates and a revoke run at once, stores all ${CONCURRENT_CREATES} usable keys, refuses the revoked one, audits each`,
    async () => {
      const store = ['--redis-url', redis.url];
      const race = await raceCreatesAndRevoke(store);
      await expectAllListed(store, race);
      await expectServerAnswers({ redisUrl: redis.url, logger: captureLogs().logger }, race);
      const entries = await client.xrange(REDIS_KEYS.audit, '-', '+');
      for (const [, fields] of entries) expect(fields[0]).toBe('json');
      expectAudited(
        entries.map(([, fields]) => fields[1]!),
        race,
      );
    },
    RACE_TIMEOUT_MS,
  );
});
