/**
 * A test file's server on the shipped engine (started before its tests, closed after them), and a POST
 * through Fastify's `inject` with a key of every scope, for tests whose subject is not the socket.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Engine } from '../../src/engine/types.js';
import { loadEngine } from '../../src/runtime/load-engine.js';
import { startTestServer, type TestServer } from './helpers.js';

export interface ShippedServer {
  readonly engine: Engine;
  readonly server: TestServer;
}

/** Registers the server's start and close with the test file; read `current` inside tests. */
export function useShippedServer(): { current: ShippedServer } {
  const holder = { current: undefined as unknown as ShippedServer };
  beforeAll(async () => {
    const engine = await loadEngine();
    holder.current = { engine, server: await startTestServer({ engine }) };
  });
  afterAll(() => holder.current.server.close());
  return holder;
}

/** POST `body` as JSON to `path` + `query` with a key of every scope; the status, text and parsed body. */
export async function postJson(server: TestServer, path: string, body: unknown, query = '') {
  const answer = await server.app.inject({
    method: 'POST',
    url: path + query,
    headers: { 'x-api-key': server.keys.all, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: answer.statusCode, text: answer.body, body: answer.json() };
}
