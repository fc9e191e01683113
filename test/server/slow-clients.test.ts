/**
 * Slow and greedy clients against the real server on loopback, with small configured limits (headers
 * 1 s, whole request 2 s) so that the tests are quick. Each test trickles bytes on a raw socket and
 * asserts that the server closes it: within the limit plus generous slack (the test's own timeout),
 * never how fast.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeEngine } from './fake-engine.js';
import { startTestServer, type TestServer } from './helpers.js';

const LIMITS = { headersTimeoutMs: 1000, requestTimeoutMs: 2000, maxConnections: 4 };
/** Far above the limits: a socket still open by then was held past them. */
const SLACK_MS = 15_000;
const BUDGETS = '/v1.0/budgets/generate';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ engine: createFakeEngine(), config: LIMITS });
});
afterAll(() => server.close());

function open(): Promise<Socket> {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => {
    // A reset from the server is one way of closing.
  });
  return once(socket, 'connect').then(() => socket);
}

/** Writes one byte of `text` every 100 ms until the socket closes; resolves with what the server sent. */
async function trickleUntilClosed(socket: Socket, text: string): Promise<string> {
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    received += chunk;
  });
  const closed = once(socket, 'close');
  let sent = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed && sent < text.length) socket.write(text[sent++]!);
  }, 100);
  try {
    await closed;
  } finally {
    clearInterval(timer);
  }
  return received;
}

const requestHead = (headers: Record<string, string>) =>
  `POST ${BUDGETS} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

describe('slow clients', () => {
  it(
    'when the headers trickle in past the headers timeout, the server closes the socket',
    async () => {
      const socket = await open();
      const received = await trickleUntilClosed(
        socket,
        `${requestHead({}).slice(0, -2)}${'X-Pad: y\r\n'.repeat(100)}`,
      );
      expect(socket.destroyed).toBe(true);
      expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
    },
    SLACK_MS,
  );

  it(
    'when an authenticated body trickles in past the request timeout, the server closes the socket',
    async () => {
      const socket = await open();
      socket.write(
        requestHead({
          'content-type': 'application/json',
          'content-length': '1000',
          'x-api-key': server.keys.all,
        }),
      );
      await trickleUntilClosed(socket, ' '.repeat(1000));
      expect(socket.destroyed).toBe(true);
    },
    SLACK_MS,
  );

  it(
    'when a refused request (no key) keeps trickling its body, the server answers 403 and closes the socket',
    async () => {
      const socket = await open();
      socket.write(requestHead({ 'content-type': 'application/json', 'content-length': '1000' }));
      const received = await trickleUntilClosed(socket, ' '.repeat(1000));
      expect(received).toMatch(/^HTTP\/1\.1 403 /);
      expect(received.toLowerCase()).toContain('connection: close');
    },
    SLACK_MS,
  );

  it(
    'when more connections than the cap are opened, the server closes the extra ones',
    async () => {
      const held = await Promise.all(Array.from({ length: LIMITS.maxConnections }, open));
      try {
        // The server's count includes sockets not yet accepted: give it a moment to see all of them.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const extra = await open();
        const received = await trickleUntilClosed(extra, requestHead({}));
        expect(received).toBe('');
      } finally {
        for (const socket of held) socket.destroy();
      }
    },
    SLACK_MS,
  );
});
