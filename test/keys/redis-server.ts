/**
 * A real `redis-server` (Debian package redis-server) on a loopback port, started by the test that needs
 * it, without persistence. Tests skip with a message naming the package when the binary is absent.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

export const REDIS_SERVER = 'redis-server';
export const redisServerInstalled = spawnSync(REDIS_SERVER, ['--version']).status === 0;
export const SKIP_WITHOUT_REDIS = redisServerInstalled
  ? ''
  : ' (skipped: no redis-server binary; apt-get install redis-server)';

export interface RunningRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** A port nobody listens on at the time of asking. */
export async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

function readyOrExit(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
}

export async function startRedisServer(): Promise<RunningRedis> {
  const port = await freeLoopbackPort();
  const child = spawn(
    REDIS_SERVER,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--loglevel',
      'notice',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await readyOrExit(child);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
