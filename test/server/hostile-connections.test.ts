/**
 * Clients that hold connections without sending a request, against the real HTTPS server on loopback:
 * silent TLS handshakes are cut, one client address cannot take every connection slot, and every access
 * line names the client even when the answer closed the socket. The idle connections come from one
 * loopback address (127.0.0.2) and the served client from another (127.0.0.3).
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CONNECTIONS_PER_ADDRESS } from '../../src/server/connection-limits.js';
import { createSelfSignedCert } from '../support/self-signed.js';
import { createFakeEngine } from './fake-engine.js';
import { startTestServer, type TestServer } from './helpers.js';

/** Past the default cap of 1,024 connections: without a per-address cap, one address would hold them all. */
const IDLE_CONNECTIONS = 1_100;
/** A hang guard far above the handshake limit, never a measure of speed. */
const HANG_GUARD_MS = 15_000;

let dir: string;
let cert: Buffer;
/** Default limits: 10 s handshake and headers, 1,024 connections, 64 per address. */
let server: TestServer;
/** A 1 s handshake limit, so that the silent client's test is quick. */
let quickServer: TestServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'outlay-hostile-'));
  const pair = await createSelfSignedCert(dir);
  cert = pair.cert;
  server = await startTestServer({ engine: createFakeEngine(), config: { tls: pair } });
  quickServer = await startTestServer({
    engine: createFakeEngine(),
    keysOf: server,
    config: { tls: pair, headersTimeoutMs: 1000 },
  });
});
afterAll(async () => {
  await server?.close();
  await quickServer?.close();
  await rm(dir, { recursive: true, force: true });
});

const portOf = (url: string) => Number(new URL(url).port);

/** A TCP connection from `localAddress` that never sends a byte; resolves once connected. */
function idleConnection(url: string, localAddress: string): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port: portOf(url), localAddress });
  socket.on('error', () => {
    // A reset from the server is one way of closing.
  });
  return once(socket, 'connect').then(() => socket);
}

function httpsRequest(
  url: string,
  options: { method?: string; localAddress?: string; headers?: Record<string, string>; body?: string },
) {
  return new Promise<number>((resolve, reject) => {
    const outgoing = request(
      url,
      { ca: cert, agent: false, timeout: HANG_GUARD_MS, ...options },
      (answer) => {
        answer.resume();
        answer.once('end', () => resolve(answer.statusCode ?? 0));
      },
    );
    outgoing.once('timeout', () => outgoing.destroy(new Error('no answer')));
    outgoing.once('error', reject);
    outgoing.end(options.body);
  });
}

describe('connections that send nothing, over TLS', () => {
  it(
    'when a client connects and sends no ClientHello, the server closes the connection after the handshake limit',
    async () => {
      const socket = await idleConnection(quickServer.url, '127.0.0.2');
      await once(socket, 'close');
    },
    HANG_GUARD_MS,
  );

  it(
    'when a client sends half a ClientHello, the server closes the connection after the handshake limit',
    async () => {
      const socket = await idleConnection(quickServer.url, '127.0.0.2');
      // A TLS record header announcing 512 bytes of handshake, then only 3 of them.
      socket.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01]));
      await once(socket, 'close');
    },
    HANG_GUARD_MS,
  );

  it(
    `when one address opens ${IDLE_CONNECTIONS} idle connections, it keeps ${DEFAULT_MAX_CONNECTIONS_PER_ADDRESS} and a client on another address is answered`,
    async () => {
      const sockets: Socket[] = [];
      const stillOpen = () => sockets.filter((socket) => !socket.destroyed).length;
      try {
        // In batches, each refused before the next is opened, so that the listen backlog (511) never
        // overflows while the server (in this process) accepts.
        while (sockets.length < IDLE_CONNECTIONS) {
          const batch = Array.from({ length: Math.min(100, IDLE_CONNECTIONS - sockets.length) }, () =>
            idleConnection(server.url, '127.0.0.2'),
          );
          sockets.push(...(await Promise.all(batch)));
          while (stillOpen() > DEFAULT_MAX_CONNECTIONS_PER_ADDRESS) await sleep(10);
        }
        expect(await httpsRequest(`${server.url}/healthz`, { localAddress: '127.0.0.3' })).toBe(200);
        expect(stillOpen()).toBe(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS);
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    },
    HANG_GUARD_MS,
  );
});

describe('the access log over TLS', () => {
  it('when clients send a refused request and reset the connection at once, every access line still carries the client address', async () => {
    const body = JSON.stringify({ demographics: { zip: '10001', net_annual_income: 50_000 } });
    const post = (path: string, headers: string, payload: string) =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n${headers}` +
      `content-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`;
    const refused = [
      post('/v1.0/budgets/generate', '', body), // 403: no key
      post('/v1.0/nope', '', body), // 404
      'PUT /v1.0/budgets/generate HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', // 405
      post('/v1.0/budgets/generate', `x-api-key: ${server.keys.all}\r\n`, 'x'.repeat(20_000)), // 413
      post('/v1.0/budgets/generate', `x-api-key: ${server.keys.all}\r\n`, '{"demographics":'), // 400
    ];
    const before = server.logs.records().length;
    const accessLines = () =>
      server.logs
        .records()
        .slice(before)
        .filter((record) => record.msg === 'request');
    for (let round = 0; round < 3; round++)
      for (const text of refused) {
        const tcp = connect({ host: '127.0.0.1', port: portOf(server.url), localAddress: '127.0.0.3' });
        const socket = tlsConnect({ socket: tcp, ca: cert, host: '127.0.0.1' });
        socket.on('error', () => {});
        await once(socket, 'secureConnect');
        socket.end(text);
        socket.destroy();
      }
    while (accessLines().length < refused.length * 3) await sleep(20);

    expect(accessLines().map((line) => line.ip)).toEqual(Array(refused.length * 3).fill('127.0.0.3'));
  });
});
