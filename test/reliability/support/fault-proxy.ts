/**
 * A fault-injecting HTTP proxy on 127.0.0.1 in front of a real server. Each request either passes through
 * or meets one fault, chosen by a seeded plan, and every fault is counted by kind so a suite can say what
 * the client survived:
 * - `5xx`: answered 500/502/503 by the proxy without reaching the server;
 * - `429 storm`: while a storm lasts, every request is answered 429 with Retry-After;
 * - `slow`: forwarded, but the answer is held back past the client's timeout;
 * - `reset`: forwarded, then the connection is destroyed halfway through the answer;
 * - `server down`: the server could not be reached (killed, restarting): answered 502, as a load balancer would.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { count, type Tally } from '../../../bench/reliability/figures.js';
import { Random } from '../../../src/sample/random.js';

export type FaultKind = '5xx' | '429 storm' | 'slow' | 'reset';

export interface FaultPlan {
  readonly seed: number;
  /** Share of requests answered 5xx by the proxy. */
  readonly serverErrorShare?: number;
  /** Share of requests whose answer is held for `slowMs`. */
  readonly slowShare?: number;
  readonly slowMs?: number;
  /** Share of requests whose connection is reset mid-answer. */
  readonly resetShare?: number;
  /** 429 storms: every `everyMs` a storm of `lastingMs` answers everything 429 with `Retry-After: retryAfterSeconds`. */
  readonly storms?: {
    readonly everyMs: number;
    readonly lastingMs: number;
    readonly retryAfterSeconds: number;
  };
}

export interface FaultProxy {
  readonly url: string;
  /** Requests received from the client, faulty or not. */
  requests(): number;
  /** Faults injected so far, by kind (plus `server down` for upstream failures the proxy saw). */
  faults(): Tally;
  close(): Promise<void>;
}

const SERVER_ERROR_STATUSES = [500, 502, 503] as const;

function answerJson(
  response: http.ServerResponse,
  status: number,
  body: object,
  headers: http.OutgoingHttpHeaders = {},
) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

export async function startFaultProxy(targetUrl: string, plan: FaultPlan): Promise<FaultProxy> {
  const target = new URL(targetUrl);
  const random = new Random(plan.seed, 0);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const faults: Tally = {};
  const openSockets = new Set<Socket>();
  let requests = 0;
  const startedAt = Date.now();

  const inStorm = () => {
    const { storms } = plan;
    return storms !== undefined && (Date.now() - startedAt) % storms.everyMs < storms.lastingMs;
  };

  function choose(): FaultKind | null {
    if (inStorm()) return '429 storm';
    const draw = random.float();
    let threshold = plan.serverErrorShare ?? 0;
    if (draw < threshold) return '5xx';
    threshold += plan.slowShare ?? 0;
    if (draw < threshold) return 'slow';
    threshold += plan.resetShare ?? 0;
    if (draw < threshold) return 'reset';
    return null;
  }

  function forward(
    request: http.IncomingMessage,
    body: Buffer,
    response: http.ServerResponse,
    fault: FaultKind | null,
  ) {
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', () => response.destroy());
        answer.on('end', () => {
          const payload = Buffer.concat(chunks);
          const send = () => {
            if (response.destroyed) return;
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            if (fault === 'reset') {
              // Half the body, then the connection dies: the client sees a truncated answer.
              response.write(payload.subarray(0, payload.length >> 1));
              setImmediate(() => response.socket?.destroy());
              return;
            }
            response.end(payload);
          };
          if (fault === 'slow') setTimeout(send, plan.slowMs ?? 0).unref();
          else send();
        });
      },
    );
    upstream.on('error', () => {
      count(faults, 'server down');
      if (!response.headersSent) answerJson(response, 502, { message: 'Bad Gateway' });
      else response.destroy();
    });
    upstream.end(body);
  }

  const server = http.createServer((request, response) => {
    requests++;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const fault = choose();
      if (fault !== null) count(faults, fault);
      if (fault === '5xx') {
        const status = SERVER_ERROR_STATUSES[random.integer(0, SERVER_ERROR_STATUSES.length - 1)]!;
        answerJson(response, status, { message: 'injected server error' });
      } else if (fault === '429 storm') {
        const seconds = plan.storms?.retryAfterSeconds ?? 1;
        answerJson(response, 429, { message: 'Too many requests' }, { 'retry-after': String(seconds) });
      } else {
        forward(request, Buffer.concat(chunks), response, fault);
      }
    });
  });
  server.on('connection', (socket) => {
    openSockets.add(socket);
    socket.once('close', () => openSockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    faults: () => ({ ...faults }),
    async close() {
      for (const socket of openSockets) socket.destroy();
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
