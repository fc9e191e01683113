/** OutputFile: buffered bytes reach the file in order, however many chunks a flush gathers or a generator yields. */
import { statSync } from 'node:fs';
import { mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  OutputFile,
  partialPathOf,
  WRITEBACK_BYTES,
  writeFileAtomically,
} from '../../../../jobs/batch/io/output-file.js';

let dir: string | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** FileHandle.prototype, which node:fs/promises does not export: spied on to see the fdatasyncs. */
async function fileHandlePrototype(path: string) {
  const handle = await open(path, 'w');
  await handle.close();
  return Object.getPrototypeOf(handle) as { datasync(): Promise<void> };
}

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

  it('unit: 2.5 × WRITEBACK_BYTES written → fdatasyncs start while writing, and every byte arrives in order', async () => {
    dir = await mkdtemp(join(tmpdir(), 'outlay-output-file-'));
    const datasync = vi.spyOn(await fileHandlePrototype(join(dir, 'probe')), 'datasync');
    const path = join(dir, 'big.bin');
    const file = await OutputFile.create(path);
    const chunk = (i: number) => new Uint8Array(1 << 18).fill(i % 251);
    const chunkCount = (WRITEBACK_BYTES * 2.5) / (1 << 18);
    for (let i = 0; i < chunkCount; i++) await file.write(chunk(i));
    const beforeSync = datasync.mock.calls.length;
    await file.commit();
    // Two if the first had finished by the time the second 32 MB were written, else one: one at a time.
    expect(beforeSync).toBeGreaterThanOrEqual(1);
    expect(beforeSync).toBeLessThanOrEqual(2);
    const written = await readFile(path);
    expect(written.byteLength).toBe(WRITEBACK_BYTES * 2.5);
    for (let i = 0; i < chunkCount; i++) expect(written[i << 18]).toBe(i % 251);
  });

  it('unit: a background fdatasync fails (EIO) → the next write and the publish throw it; nothing is published', async () => {
    dir = await mkdtemp(join(tmpdir(), 'outlay-output-file-'));
    const eio = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    vi.spyOn(await fileHandlePrototype(join(dir, 'probe')), 'datasync').mockRejectedValueOnce(eio);
    const path = join(dir, 'big.bin');
    const file = await OutputFile.create(path);
    const chunk = new Uint8Array(1 << 20);
    // The last of these writes starts the fdatasync, whose (mocked) failure settles before the write returns.
    for (let written = 0; written < WRITEBACK_BYTES; written += chunk.byteLength) await file.write(chunk);
    await expect(file.write(chunk)).rejects.toThrow('EIO');
    await expect(file.commit()).rejects.toThrow('EIO');
    await file.discard();
    expect((await readdir(dir)).sort()).toEqual(['probe']);
  });
});
