/**
 * The access log's own switch (`accessLog`, `--access-log`): the logger's level quiets the server's
 * messages, never the access lines. Through Fastify's inject: the socket is not the subject.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/build-server.js';
import { DEFAULT_SERVER_CONFIG } from '../../src/server/config.js';
import { createFakeEngine } from './fake-engine.js';

/** The `msg` of each line a server writes through a logger at `level`, after one GET /healthz. */
async function linesAfterOneRequest(level: pino.Level, accessLog: boolean): Promise<string[]> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const app = buildServer({
    config: { ...DEFAULT_SERVER_CONFIG, maxEventLoopDelayMs: 0, accessLog },
    engine: createFakeEngine(),
    keyStore: { authenticate: () => undefined, size: 0, close() {} },
    logger: pino({ level }, stream),
  });
  try {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  } finally {
    await app.close();
  }
  return lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
}

describe('the access log', () => {
  it('with the logger at level warn, still writes the access line', async () => {
    expect(await linesAfterOneRequest('warn', true)).toEqual(['request']);
  });

  it('turned off, writes no access line even at level info', async () => {
    expect(await linesAfterOneRequest('info', false)).toEqual([]);
  });
});
