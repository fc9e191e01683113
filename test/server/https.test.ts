/** HTTPS natively: a self-signed certificate generated in the test, a client that trusts only it. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeEngine } from './fake-engine.js';
import { startTestServer, type TestServer } from './helpers.js';

let dir: string;
let cert: Buffer;
let server: TestServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'outlay-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  cert = await readFile(join(dir, 'cert.pem'));
  const key = await readFile(join(dir, 'key.pem'));
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
