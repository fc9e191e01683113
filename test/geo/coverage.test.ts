/**
 * Places outside what the model covers, over the real server and the real batch job on the shipped
 * engine: codes USPS has not issued are refused, territories and military mail are scored at national
 * prices with ZIP_OUTSIDE_COVERAGE and geo_level "outside", unlisted ZIPs of a known prefix with
 * ZIP_UNKNOWN and geo_level "zip3"; the batch job rejects, flags and counts them (docs/model.md, "Coverage").
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATION_PATHS } from '../../src/contract/endpoints.js';
import { UNKNOWN_ZIP_MESSAGE } from '../../src/engine/create-engine.js';
import { runCli, tempDir } from '../jobs/batch/score/helpers.js';
import { postJson, useShippedServer } from '../server/shipped-server.js';

const shipped = useShippedServer();
const post = (path: string, zip: string, query = '') =>
  postJson(shipped.current.server, path, { demographics: { zip, net_annual_income: 45_000 } }, query);

const UNKNOWN_ZIP_ERROR = {
  message: 'Invalid request body',
  errors: [{ path: '/demographics/zip', message: UNKNOWN_ZIP_MESSAGE }],
};

describe('ZIP coverage over HTTP', () => {
  it('00000 (unassigned prefix) and 99999 (past the last ZIP of prefix 999), every operation, answer 400 "unknown ZIP code"', async () => {
    for (const zip of ['00000', '99999', '99999-0001'])
      for (const path of Object.values(OPERATION_PATHS)) {
        const answer = await post(path, zip);
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual(UNKNOWN_ZIP_ERROR);
      }
  });

  it('explained score, PR 00901, VI 00802, GU 96910 and APO 09001, carry ZIP_OUTSIDE_COVERAGE and geo_level outside', async () => {
    for (const zip of ['00901', '00802', '96910', '09001']) {
      const { status, body } = await post('/v1.0/scores/generate', zip, '?explain=true');
      expect(status).toBe(200);
      expect(body.details.geo_level).toBe('outside');
      expect(body.details.flags).toEqual([{ code: 'ZIP_OUTSIDE_COVERAGE', category: null }]);
    }
  });

  it('explained score, unlisted 35250 inside prefix 352 (Birmingham AL), carries ZIP_UNKNOWN at geo_level zip3; 35210 no flag', async () => {
    const unknown = await post('/v1.0/scores/generate', '35250', '?explain=true');
    expect(unknown.body.details).toMatchObject({
      geo_level: 'zip3',
      flags: [{ code: 'ZIP_UNKNOWN', category: null }],
    });
    const listed = await post('/v1.0/scores/generate', '35210', '?explain=true');
    expect(listed.body.details).toMatchObject({ geo_level: 'zip', flags: [] });
  });

  it('plain score of a flagged place, is the three values alone', async () => {
    const { body } = await post('/v1.0/scores/generate', '00901');
    expect(Object.keys(body)).toEqual(['Predicted Saving Ability', 'OUTLAY', 'SAViNGS']);
  });
});

describe('ZIP coverage in the batch job', () => {
  it('score, rows with 00000, 00901, 35250 and 35210: the unknown code rejected naming row and field, the others flagged (after an expense flag) and counted', async () => {
    const dir = await tempDir('coverage');
    const input = join(dir, 'households.csv');
    await writeFile(
      input,
      'id,net_annual_income,zip,mortgage_and_rent\n1,45000,00000,\n2,45000,00901,\n3,45000,35250,\n4,45000,35210,\n5,45000,35250,100\n',
    );
    const run = await runCli(['score', input, '--out', join(dir, 'out'), '--log-level', 'warn']);
    expect(run.code).toBe(3); // finished with rejects
    const rejects = await readFile(join(dir, 'out', 'households.rejects.csv'), 'utf8');
    expect(rejects).toContain(`1,1,45000,00000,,/demographics/zip ${UNKNOWN_ZIP_MESSAGE}`);
    const scored = (await readFile(join(dir, 'out', 'households.scored.csv'), 'utf8')).trim().split('\n');
    const header = scored[0]!.split(',');
    const cell = (line: string, column: string) => line.split(',')[header.indexOf(column)];
    expect(
      scored
        .slice(1)
        .map((line) => [cell(line, 'zip'), cell(line, 'geo_level'), cell(line, 'expense_flags')]),
    ).toEqual([
      ['00901', 'outside', 'ZIP_OUTSIDE_COVERAGE'],
      ['35250', 'zip3', 'ZIP_UNKNOWN'],
      ['35210', 'zip', ''],
      // The expense flags first, then the place's.
      ['35250', 'zip3', 'BELOW_PEERS:mortgage_and_rent;ZIP_UNKNOWN'],
    ]);
    const summary = JSON.parse(await readFile(join(dir, 'out', 'households.summary.json'), 'utf8'));
    expect(summary.expense_flags).toEqual({
      'BELOW_PEERS:mortgage_and_rent': 1,
      ZIP_OUTSIDE_COVERAGE: 1,
      ZIP_UNKNOWN: 2,
    });
    expect(summary.counts.rejected_by_reason).toEqual({ [`/demographics/zip ${UNKNOWN_ZIP_MESSAGE}`]: 1 });
    expect(await readFile(join(dir, 'out', 'households.report.html'), 'utf8')).toContain(
      'ZIP_OUTSIDE_COVERAGE',
    );
  });
});
