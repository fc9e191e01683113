/**
 * A keep-alive HTTP client that sends bytes exactly as given (no default content type, no re-encoding), over
 * a few concurrent connections, as a hostile but well-behaved TCP client would.
 */
import http from 'node:http';

export interface RawRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
}

export interface RawClient {
  send(request: RawRequest): Promise<RawAnswer>;
  close(): void;
}

export function createRawClient(baseUrl: string, connections: number): RawClient {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  return {
    send(request) {
      return new Promise((resolve, reject) => {
        const outgoing = http.request(
          {
            host: base.hostname,
            port: base.port,
            method: request.method ?? 'POST',
            path: request.path,
            agent,
            headers: { ...request.headers, 'content-length': String(request.body?.length ?? 0) },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('error', reject);
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                headers: response.headers,
                text: Buffer.concat(chunks).toString('utf8'),
              }),
            );
          },
        );
        outgoing.on('error', reject);
        outgoing.end(request.body);
      });
    },
    close: () => agent.destroy(),
  };
}

/** Runs `work` over every item with at most `concurrency` at a time; resolves when all are done. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}
