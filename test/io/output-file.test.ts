/** OutputFile: buffered bytes reach the file in order, however many chunks a flush gathers. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OutputFile } from '../../src/io/output-file.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('OutputFile', () => {
  it('unit: more chunks in one flush than one writev takes (IOV_MAX) → every byte written once, in order', async () => {
    dir = await mkdtemp(join(tmpdir(), 'outlay-output-file-'));
    const path = join(dir, 'out.bin');
    const file = await OutputFile.create(path);
    // 3,000 chunks of 400 bytes: past the 1 MiB flush threshold in one flush, and over Linux's IOV_MAX (1,024).
    const chunks = Array.from({ length: 3000 }, (_, i) => new Uint8Array(400).fill(i % 251));
    for (const chunk of chunks) await file.write(chunk);
    await file.write('tail');
    await file.commit();
    expect(Buffer.compare(await readFile(path), Buffer.concat([...chunks, Buffer.from('tail')]))).toBe(0);
  });
});
