/**
 * The fair-lending profile served (`outlay serve --score-profile fair-lending`, ServerConfig.scoreProfile)
 * and scored remotely: the server scores without age and household type, the remote batch writes the same
 * file as the local one, and a job asking for another profile than the server's stops.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScoreJob, type ScoreJobOptions } from '../../jobs/batch/score/job.js';
import type { ScoringOptions } from '../../jobs/batch/score/layout.js';
import { InProcessScorer } from '../../jobs/batch/score/local-scorer.js';
import { RemoteScorer } from '../../jobs/batch/score/remote-scorer.js';
import { createEngine } from '../../src/engine/create-engine.js';
import { RemoteClient } from '../../src/remote/client.js';
import { loadEngine } from '../../src/runtime/load-engine.js';
import { fakeGeo, fakeModel, fakeReference } from '../engine/fakes.js';
import { householdsCsv, scoreJobOptions, tempDir } from '../jobs/batch/score/helpers.js';
import { startTestServer, type TestServer } from '../server/helpers.js';

const FAIR: ScoringOptions = { basis: 'stated', profile: 'fair-lending' };
const fake = createEngine({ model: fakeModel(), geo: fakeGeo, reference: fakeReference('fake-1') });
let fakeServer: TestServer;
let shippedServer: TestServer;
let dir: string;
let input: string;

beforeAll(async () => {
  const config = { rateLimit: 10_000_000, scoreProfile: 'fair-lending' as const };
  fakeServer = await startTestServer({ engine: fake, config });
  shippedServer = await startTestServer({ engine: await loadEngine(), config });
  dir = await tempDir('profile');
  input = join(dir, 'households.csv');
  await writeFile(input, householdsCsv(200, { badEvery: 41 }));
});
afterAll(async () => {
  await fakeServer.close();
  await shippedServer.close();
});

const remote = (layout: Parameters<ScoreJobOptions['startScorer']>[0]) =>
  new RemoteScorer(
    new RemoteClient({
      baseUrl: fakeServer.url,
      apiKey: fakeServer.keys.all,
      concurrency: 8,
      timeoutMs: 2_000,
    }),
    fakeGeo,
    layout,
    { modelVersion: 'fake-1', priceYear: undefined, maxHouseholds: undefined },
    64,
    8,
  );

async function scoreInto(name: string, startScorer: ScoreJobOptions['startScorer'], scoring = FAIR) {
  const outDir = join(dir, name);
  await runScoreJob(scoreJobOptions(input, outDir, startScorer, { scoring }));
  return readFile(join(outDir, 'households.scored.csv'), 'utf8');
}

describe('the fair-lending profile over HTTP', () => {
  it('contract: a fair-lending server explains with profile fair-lending; age and household type leave the score', async () => {
    const ask = async (demographics: object) => {
      const answer = await shippedServer.app.inject({
        method: 'POST',
        url: '/v1.0/scores/generate?explain=true',
        headers: { 'x-api-key': shippedServer.keys.all, 'content-type': 'application/json' },
        payload: JSON.stringify({
          demographics: { zip: '35210', net_annual_income: 41_004, ...demographics },
        }),
      });
      expect(answer.statusCode).toBe(200);
      return answer.json();
    };
    const young = await ask({ age: 25 });
    const older = await ask({ age: 70, household_type: 'married_couple' });
    expect(young.details.profile).toBe('fair-lending');
    expect(older).toEqual(young);
    // The standard engine tells them apart, so the profile is what makes them equal.
    const standard = await loadEngine();
    const body = (age: number) => ({ demographics: { zip: '35210', net_annual_income: 41_004, age } });
    expect(standard.score(body(25))).not.toEqual(standard.score(body(70)));
  });

  it('scenario: remote batch against a fair-lending server → the same scored file as the local fair-lending run', async () => {
    const local = await scoreInto('local', async (layout) => new InProcessScorer(fake, layout));
    expect(await scoreInto('remote', async (layout) => remote(layout))).toBe(local);
  });

  it('scenario: a standard job against a fair-lending server → stops, naming both profiles', async () => {
    await expect(
      scoreInto('mismatch', async (layout) => remote(layout), { basis: 'stated', profile: 'standard' }),
    ).rejects.toThrow(/profile fair-lending, the job asks for basis stated with profile standard/);
  });
});
