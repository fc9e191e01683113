/** OutputFile: buffered bytes reach the file in order, however many chunks a flush gathers or a generator yields. */
import { statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OutputFile, partialPathOf, writeFileAtomically } from '../../src/io/output-file.js';

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

  it('unit: a file written from a generator → its chunks reach the disk while it is still producing them', async () => {
    dir = await mkdtemp(join(tmpdir(), 'outlay-output-file-'));
    const path = join(dir, 'out.json');
    let writtenWhileProducing = 0;
    // 40 MiB in 64 KiB chunks, each made only when asked for.
    function* chunks() {
      for (let i = 0; i < 640; i++) {
        if (i === 600) writtenWhileProducing = statSync(partialPathOf(path)).size;
        yield new Uint8Array(1 << 16).fill(i % 251);
      }
    }
    await writeFileAtomically(path, chunks());
    expect((await readFile(path)).byteLength).toBe(640 << 16);
    // All but the last flush's worth (OutputFile flushes every MiB or so) was on disk already.
    expect(writtenWhileProducing).toBeGreaterThan(500 << 16);
  });

  it('unit: a generator that fails midway → no file under the final name, no temporary file left', async () => {
    dir = await mkdtemp(join(tmpdir(), 'outlay-output-file-'));
    function* failing() {
      yield Buffer.from('{"partial": ');
      throw new Error('the summary could not be written');
    }
    await expect(writeFileAtomically(join(dir, 'out.json'), failing())).rejects.toThrow(
      'could not be written',
    );
    expect(await readdir(dir)).toEqual([]);
  });
});
