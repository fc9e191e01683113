/** HTTPS natively: a self-signed certificate generated in the test, a client that trusts only it. */
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSelfSignedCert } from '../support/self-signed.js';
import { createFakeEngine } from './fake-engine.js';
import { startTestServer, type TestServer } from './helpers.js';

let dir: string;
let cert: Buffer;
let server: TestServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'outlay-tls-'));
  let key: Buffer;
  ({ cert, key } = await createSelfSignedCert(dir));
  server = await startTestServer({ engine: createFakeEngine(), config: { tls: { cert, key } } });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function httpsPost(url: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', ca: cert, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('buildServer with a TLS certificate', () => {
  it('when a client trusting the certificate posts a valid request, answers 200 over HTTPS', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const answer = await httpsPost(
      `${server.url}/v1.0/scores/generate`,
      JSON.stringify({ demographics: { zip: '12345', net_annual_income: 40_000 } }),
      { 'content-type': 'application/json', 'x-api-key': server.keys.all },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveProperty('OUTLAY');
  });

  it('when a client does not trust the certificate, the TLS handshake fails', async () => {
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});
