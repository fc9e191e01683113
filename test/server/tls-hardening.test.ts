/**
 * TLS hardening against the real server on loopback, with certificates made by openssl in a temp dir: an
 * RSA server certificate (so that static-RSA suites could be negotiated at all), and a CA signing a client
 * certificate for mutual TLS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSelfSignedCert } from '../support/self-signed.js';
import { createFakeEngine } from './fake-engine.js';
import { startTestServer, type TestServer } from './helpers.js';

let dir: string;
let serverCert: Buffer;
let client: { cert: Buffer; key: Buffer };
let server: TestServer;
let mtlsServer: TestServer;

const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore', cwd: dir });
const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'outlay-tls-hardening-'));
  let serverKey: Buffer;
  ({ cert: serverCert, key: serverKey } = await createSelfSignedCert(dir, 'rsa'));
  openssl(
    'req',
    '-x509',
    ...EC,
    '-days',
    '1',
    '-subj',
    '/CN=Outlay test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  );
  openssl('req', ...EC, '-subj', '/CN=lender-app', '-keyout', 'client.key', '-out', 'client.csr');
  openssl(
    'x509',
    '-req',
    '-in',
    'client.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '1',
    '-out',
    'client.pem',
  );
  const read = (name: string) => readFile(join(dir, name));
  client = { cert: await read('client.pem'), key: await read('client.key') };
  server = await startTestServer({
    engine: createFakeEngine(),
    config: { tls: { cert: serverCert, key: serverKey } },
  });
  mtlsServer = await startTestServer({
    engine: createFakeEngine(),
    config: { tls: { cert: serverCert, key: serverKey, clientCa: await read('ca.pem') } },
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await mtlsServer?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Resolves with the negotiated cipher, or rejects when the handshake fails. */
function handshake(url: string, options: { ciphers?: string; cert?: Buffer; key?: Buffer }) {
  const { port } = new URL(url);
  return new Promise<string>((resolve, reject) => {
    const socket: TLSSocket = connect({
      host: '127.0.0.1',
      port: Number(port),
      ca: serverCert,
      maxVersion: 'TLSv1.2',
      ...options,
    });
    socket.once('secureConnect', () => {
      const name = socket.getCipher().name;
      socket.destroy();
      resolve(name);
    });
    socket.once('error', reject);
  });
}

function httpsGet(url: string, options: { cert?: Buffer; key?: Buffer } = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const outgoing = request(url, { ca: serverCert, ...options }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, headers: response.headers });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('TLS defaults', () => {
  it.each(['AES128-SHA256', 'AES128-GCM-SHA256', 'ECDHE-RSA-AES128-SHA'])(
    'when a TLS 1.2 client offers only %s (no forward secrecy or no AEAD), the handshake is refused',
    async (cipher) => {
      await expect(handshake(server.url, { ciphers: cipher })).rejects.toThrow();
    },
  );

  it('when a TLS 1.2 client offers ECDHE with AES-GCM, the handshake succeeds', async () => {
    expect(await handshake(server.url, { ciphers: 'ECDHE-RSA-AES128-GCM-SHA256' })).toBe(
      'ECDHE-RSA-AES128-GCM-SHA256',
    );
  });

  it('when answering over TLS, sends Strict-Transport-Security', async () => {
    const answer = await httpsGet(`${server.url}/healthz`);
    expect(answer.status).toBe(200);
    expect(answer.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
  });
});

describe('mutual TLS (a client CA configured)', () => {
  it('when the client presents a certificate signed by the CA, answers', async () => {
    expect((await httpsGet(`${mtlsServer.url}/healthz`, client)).status).toBe(200);
  });

  it('when the client presents no certificate, the connection is refused', async () => {
    await expect(httpsGet(`${mtlsServer.url}/healthz`)).rejects.toThrow();
  });
});
