/**
 * `outlay serve` as a child process on a loopback port: the server exactly as deployed (CLI flags, real
 * logger on stdout, real engine), which a suite can SIGKILL and start again on the same port.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../../bench/lib/process.js';
import { spawnOutlay } from './outlay-cli.js';

export interface ServeOptions {
  readonly keysFile: string;
  /** Requests per minute per key (the server's --rate-limit). */
  readonly rateLimit?: number;
  readonly logLevel?: 'info' | 'warn' | 'error';
  /** One line per request (the server's --access-log); on by default. */
  readonly accessLog?: boolean;
  /** Connections per client address (the server's --max-connections-per-address; 0: no cap). */
  readonly maxConnectionsPerAddress?: number;
}

export interface ServeProcess {
  readonly url: string;
  readonly port: number;
  /** The admin listener: /readyz and /metrics. */
  readonly adminUrl: string;
  /** Everything the server wrote on stdout and stderr so far, across restarts (its pino logs). */
  output(): string;
  /** SIGKILL: no graceful shutdown, as when a machine dies. */
  kill(): Promise<void>;
  /** Starts the server again on the same port. */
  restart(): Promise<void>;
  /** SIGTERM and wait for a graceful exit. */
  stop(): Promise<void>;
  /** How the last run ended, or null while it runs. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | null;
}

/** A hang guard: start-up takes seconds, far longer on a machine whose cores are all busy. */
const READY_TIMEOUT_MS = 300_000;

export async function startServe(options: ServeOptions): Promise<ServeProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Readiness is answered on the admin listener.
  const adminPort = await freePort();
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const args = [
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--admin-port',
    String(adminPort),
    '--keys',
    options.keysFile,
    '--log-level',
    options.logLevel ?? 'info',
    '--access-log',
    String(options.accessLog ?? true),
    ...(options.rateLimit === undefined ? [] : ['--rate-limit', String(options.rateLimit)]),
    ...(options.maxConnectionsPerAddress === undefined
      ? []
      : ['--max-connections-per-address', String(options.maxConnectionsPerAddress)]),
  ];
  let output = '';
  let child: ChildProcess;
  let exited: Promise<void>;
  let ended: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  async function launch(): Promise<void> {
    ended = null;
    child = spawnOutlay(args);
    const collect = (chunk: string) => {
      output += chunk;
    };
    child.stdout?.setEncoding('utf8').on('data', collect);
    child.stderr?.setEncoding('utf8').on('data', collect);
    exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        ended = { code, signal };
        resolve();
      }),
    );
    await waitUntilReady(
      adminUrl,
      () => ended !== null,
      () => output,
    );
  }

  async function signalAndWait(signal: NodeJS.Signals): Promise<void> {
    if (ended === null) child.kill(signal);
    await exited;
  }

  await launch();
  return {
    url,
    port,
    adminUrl,
    output: () => output,
    kill: () => signalAndWait('SIGKILL'),
    restart: launch,
    async stop() {
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await signalAndWait('SIGTERM');
      clearTimeout(killer);
    },
    exit: () => ended,
  };
}

async function waitUntilReady(url: string, hasExited: () => boolean, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && !hasExited()) {
    try {
      const response = await fetch(`${url}/readyz`);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`outlay serve did not become ready at ${url}:\n${output()}`);
}
