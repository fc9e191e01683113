import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type HttpResponse,
  HttpTransport,
  RequestTimeoutError,
  type TransportOptions,
} from '../../src/remote/http-transport.js';
import { createSelfSignedCert } from '../support/self-signed.js';

let server: Server | undefined;
let transport: HttpTransport | undefined;
afterEach(async () => {
  await transport?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = transport = undefined;
});

const OPTIONS: TransportOptions = { connections: 2, timeoutMs: 5000 };

const post = (via: HttpTransport, path: string, body: string) =>
  new Promise<HttpResponse>((resolve, reject) =>
    via.post(path, Buffer.from(body), (error, response) =>
      error === undefined ? resolve(response!) : reject(error),
    ),
  );

/** Answers every request with what it received, as JSON, in two chunks. */
function echo(request: IncomingMessage, response: ServerResponse) {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => {
    body += chunk;
  });
  request.on('end', () => {
    const text = JSON.stringify({ method: request.method, url: request.url, headers: request.headers, body });
    response.writeHead(200, { 'content-type': 'application/json', 'retry-after': '7' });
    response.write(text.slice(0, 10));
    response.end(text.slice(10));
  });
}

async function listen(created: Server, scheme: 'http' | 'https'): Promise<string> {
  server = created;
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(created.address() as AddressInfo).port}`;
}

describe('HttpTransport', () => {
  it.each([
    ['no path', '', '/v1.0/scores/generate'],
    ['a path prefix', '/outlay', '/outlay/v1.0/scores/generate'],
    ['a path prefix with a trailing slash', '/outlay/', '/outlay/v1.0/scores/generate'],
  ])('when the base URL has %s, posts under it with the fixed headers', async (_case, prefix, expected) => {
    const origin = await listen(createServer(echo), 'http');
    transport = new HttpTransport(new URL(`${origin}${prefix}`), {
      ...OPTIONS,
      headers: { 'x-api-key': 'k' },
    });
    const response = await post(transport, '/v1.0/scores/generate', '{"é":1}');
    const received = JSON.parse(response.body.toString());
    expect(received).toMatchObject({ method: 'POST', url: expected, body: '{"é":1}' });
    expect(received.headers).toMatchObject({
      'x-api-key': 'k',
      accept: 'application/json',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength('{"é":1}')),
    });
    expect(response.status).toBe(200);
    expect(response.headers['retry-after']).toBe('7');
  });

  it('GET sends neither the fixed headers nor a body; URL credentials become Basic authentication', async () => {
    const origin = await listen(createServer(echo), 'http');
    const base = new URL(origin);
    base.username = 'us%20er';
    base.password = 'p%3Ass';
    transport = new HttpTransport(base, { ...OPTIONS, headers: { 'x-api-key': 'k' } });
    const received = JSON.parse((await transport.get('/readyz')).body.toString());
    expect(received).toMatchObject({ method: 'GET', url: '/readyz', body: '' });
    expect(received.headers['x-api-key']).toBeUndefined();
    expect(received.headers.authorization).toBe(`Basic ${Buffer.from('us er:p:ss').toString('base64')}`);
  });

  it('keyed GET sends the fixed headers (the key) but no content type', async () => {
    transport = new HttpTransport(new URL(await listen(createServer(echo), 'http')), {
      ...OPTIONS,
      headers: { 'x-api-key': 'k' },
    });
    const received = JSON.parse((await transport.get('/v1.0/engine', true)).body.toString());
    expect(received).toMatchObject({ method: 'GET', url: '/v1.0/engine', body: '' });
    expect(received.headers['x-api-key']).toBe('k');
    expect(received.headers['content-type']).toBeUndefined();
  });

  it('a server that never answers → RequestTimeoutError after the timeout', async () => {
    const origin = await listen(
      createServer(() => {}),
      'http',
    );
    transport = new HttpTransport(new URL(origin), { ...OPTIONS, timeoutMs: 100 });
    await expect(post(transport, '/slow', '{}')).rejects.toThrow(RequestTimeoutError);
  });

  it('HTTPS with a self-signed certificate trusted through `ca`', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'outlay-remote-tls-'));
    try {
      const { cert, key } = await createSelfSignedCert(dir);
      const origin = await listen(createHttpsServer({ cert, key }, echo), 'https');
      const untrusting = new HttpTransport(new URL(origin), OPTIONS);
      await expect(untrusting.get('/readyz')).rejects.toThrow(/self[- ]signed/i);
      await untrusting.close();
      transport = new HttpTransport(new URL(origin), { ...OPTIONS, ca: cert.toString('utf8') });
      expect((await transport.get('/readyz')).status).toBe(200);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
