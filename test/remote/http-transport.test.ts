import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../src/remote/http-transport.js';

let server: Server | undefined;
let transport: HttpTransport | undefined;
afterEach(async () => {
  transport?.close();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
});

/** A server that answers every request with what it received, as JSON, in two chunks. */
async function echoServer(): Promise<string> {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const echo = JSON.stringify({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body,
      });
      response.writeHead(200, { 'content-type': 'application/json', 'retry-after': '7' });
      response.write(echo.slice(0, 10));
      response.end(echo.slice(10));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('HttpTransport request', () => {
  it.each([
    ['no path', '', '/v1.0/scores/generate'],
    ['a path prefix', '/outlay', '/outlay/v1.0/scores/generate'],
    ['a path prefix with a trailing slash', '/outlay/', '/outlay/v1.0/scores/generate'],
  ])('when the base URL has %s, sends the request under it', async (_case, prefix, expected) => {
    const origin = await echoServer();
    transport = new HttpTransport(new URL(`${origin}${prefix}`), { maxSockets: 2, timeoutMs: 5000 });
    const response = await transport.request(
      'POST',
      '/v1.0/scores/generate',
      { 'x-api-key': 'k' },
      '{"é":1}',
    );
    const echo = JSON.parse(response.body);
    expect(echo).toMatchObject({ method: 'POST', url: expected, body: '{"é":1}' });
    expect(echo.headers).toMatchObject({
      'x-api-key': 'k',
      accept: 'application/json',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength('{"é":1}')),
    });
    expect(response.status).toBe(200);
    expect(response.headers['retry-after']).toBe('7');
  });
});
