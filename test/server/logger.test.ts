/**
 * The server's default logger writes to stdout in batches; these run it in a child process (from dist, so
 * run `npm run build` first; `npm test` does) to see exactly what reaches stdout.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';

const LOGGER_MODULE = join(PACKAGE_ROOT, 'dist', 'src', 'server', 'logger.js');

beforeAll(() => {
  if (!existsSync(LOGGER_MODULE)) throw new Error('run `npm run build` first');
});

/** Runs `body` with `logger` (the default createLogger()) and returns the `msg` of every stdout line. */
async function messagesOf(body: string): Promise<string[]> {
  const script = `import { createLogger } from ${JSON.stringify(LOGGER_MODULE)};\nconst logger = createLogger();\n${body}`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]).catch(
    (error: { stdout: string }) => error,
  );
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

describe('createLogger default destination', () => {
  it('when many lines are logged, writes every one, in order, each whole', async () => {
    const messages = await messagesOf(
      'for (let i = 0; i < 500; i++) logger.info({ route: "/v1.0/budgets/generate" }, "line " + i);',
    );
    expect(messages).toEqual(Array.from({ length: 500 }, (_, i) => `line ${i}`));
  });

  it('when the process exits right after a log call, the gathered lines are still written', async () => {
    const messages = await messagesOf('logger.info("first"); logger.error("last words"); process.exit(1);');
    expect(messages).toEqual(['first', 'last words']);
  });

  it('when flushed, writes the lines gathered so far while the process keeps running', async () => {
    const messages = await messagesOf(
      'logger.info("ready"); logger.flush(); setTimeout(() => { console.log(JSON.stringify({ msg: "after" })); process.exit(0); }, 200);',
    );
    expect(messages).toEqual(['ready', 'after']);
  });
});
