/**
 * An output file that appears under its final name only when complete. Bytes go to a hidden temporary
 * file beside the target (`.<name>.partial`: a dotfile with a suffix no reader treats as output), which is
 * fsync'd and renamed over the final name by `commit()`. A killed or failed run therefore never leaves a
 * half file that looks finished. The temporary file can be reopened at a committed length to resume.
 */
import { type FileHandle, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncDirectory } from '../../../src/runtime/sync-directory.js';

/** Buffered bytes are written once they pass this size: few syscalls, bounded memory. */
const FLUSH_BYTES = 1 << 20;
/**
 * Every this many bytes written, the file starts an fdatasync in the background (one at a time). Linux
 * starts writing dirty pages back only at 10 % of memory or after 30 s (vm.dirty_background_ratio,
 * dirty_expire_centisecs), so a job's whole output otherwise reached the disk in the fsync after its last
 * row: 442 MB of 1 M-row Arrow output took ~0.5 s there, after the scoring, and was most of the run's
 * tail. Written back as it goes, that fsync finds ~32 MB left.
 */
export const WRITEBACK_BYTES = 32 << 20;

export const partialPathOf = (finalPath: string) =>
  join(dirname(finalPath), `.${basename(finalPath)}.partial`);

export class OutputFile {
  readonly partialPath: string;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private writtenBytes: number;
  private closed = false;
  /** The background fdatasync under way, if any, and where the last one started. */
  private writeback: Promise<void> | undefined;
  private writebackFrom: number;
  /**
   * Why a background fdatasync failed: every later write and sync throws it. Kept here because Linux
   * reports a writeback error to an open file once, so the final fsync would succeed over lost bytes.
   */
  private writebackFailure: Error | undefined;

  private constructor(
    readonly finalPath: string,
    private readonly handle: FileHandle,
    startBytes: number,
  ) {
    this.partialPath = partialPathOf(finalPath);
    this.writtenBytes = startBytes;
    this.writebackFrom = startBytes;
  }

  /**
   * Starts a new temporary file, replacing any left by an earlier run. Replaced, not truncated: a run
   * that lost its lock while paused still holds the old file open, and its writes must go there, not
   * into this one.
   */
  static async create(finalPath: string): Promise<OutputFile> {
    const partialPath = partialPathOf(finalPath);
    await unlink(partialPath).catch(() => undefined);
    return new OutputFile(finalPath, await open(partialPath, 'wx'), 0);
  }

  /** Reopens the temporary file of an interrupted run, cut back to the length its checkpoint committed. */
  static async resume(finalPath: string, committedBytes: number): Promise<OutputFile> {
    const handle = await open(partialPathOf(finalPath), 'r+');
    const { size } = await handle.stat();
    if (size < committedBytes) {
      await handle.close();
      throw new Error(
        `cannot resume: ${partialPathOf(finalPath)} has ${size} bytes, the checkpoint says ${committedBytes} were written`,
      );
    }
    await handle.truncate(committedBytes);
    return new OutputFile(finalPath, handle, committedBytes);
  }

  /** Bytes written so far, including those still buffered. */
  get bytes(): number {
    return this.writtenBytes + this.pendingBytes;
  }

  async write(data: string | Uint8Array): Promise<void> {
    this.throwIfWritebackFailed();
    const chunk =
      typeof data === 'string'
        ? Buffer.from(data, 'utf8')
        : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    this.pending.push(chunk);
    this.pendingBytes += chunk.byteLength;
    if (this.pendingBytes >= FLUSH_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    let chunks = this.pending;
    const length = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    // Gathered by the kernel: joining the chunks first copied every output byte once more (an Arrow
    // batch is hundreds of small buffers).
    let offset = 0;
    while (offset < length) {
      const { bytesWritten } = await this.handle.writev(chunks, this.writtenBytes + offset);
      offset += bytesWritten;
      if (offset < length) chunks = unwritten(chunks, bytesWritten);
    }
    this.writtenBytes += length;
    if (this.writeback === undefined && this.writtenBytes - this.writebackFrom >= WRITEBACK_BYTES)
      this.startWriteback();
  }

  private startWriteback(): void {
    this.writebackFrom = this.writtenBytes;
    this.writeback = this.handle.datasync().then(
      () => {
        this.writeback = undefined;
      },
      (error: unknown) => {
        this.writeback = undefined;
        this.writebackFailure ??= error instanceof Error ? error : new Error(String(error));
      },
    );
  }

  private throwIfWritebackFailed(): void {
    if (this.writebackFailure !== undefined) throw this.writebackFailure;
  }

  /** Makes every byte written so far durable; returns the durable length (what a checkpoint may record). */
  async sync(): Promise<number> {
    await this.flush();
    await this.writeback;
    this.throwIfWritebackFailed();
    await this.handle.sync();
    return this.writtenBytes;
  }

  /** Publishes the complete file under its final name. */
  async commit(): Promise<void> {
    await publishTogether([this]);
  }

  /**
   * Removes the temporary file of a run that will not be resumed, unless another run has replaced it
   * meanwhile (after taking over the lock of a paused run): that one is not this run's to remove.
   */
  async discard(): Promise<void> {
    const mine = this.closed ? undefined : await this.handle.stat();
    await this.close();
    const there = await stat(this.partialPath).catch(() => undefined);
    if (there === undefined || (mine !== undefined && there.ino !== mine.ino)) return;
    await unlink(this.partialPath).catch(() => undefined);
  }

  /** Closes without publishing, keeping the temporary file for a later resume. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writeback;
    await this.handle.close();
  }
}

/** What is left of `chunks` after the first `written` bytes (a short write, e.g. more chunks than IOV_MAX). */
function unwritten(chunks: readonly Buffer[], written: number): Buffer[] {
  let skipped = 0;
  let first = 0;
  while (skipped + chunks[first]!.byteLength <= written) skipped += chunks[first++]!.byteLength;
  return [chunks[first]!.subarray(written - skipped), ...chunks.slice(first + 1)];
}

/**
 * Publishes complete files in the given order: every file is made durable and closed first, then the
 * renames run back to back, so a kill leaves either the temporary files or (but for the microseconds
 * between renames) all the final ones. Put the file that marks a finished run last.
 */
export async function publishTogether(files: readonly OutputFile[]): Promise<void> {
  for (const file of files) {
    await file.sync();
    await file.close();
  }
  for (const file of files) await rename(file.partialPath, file.finalPath);
  for (const dir of new Set(files.map((file) => dirname(file.finalPath)))) await syncDirectory(dir);
}

/** Writes a whole file (summary, report, checkpoint) atomically: temporary file, fsync, rename. */
export async function writeFileAtomically(
  finalPath: string,
  content: string | Iterable<Uint8Array>,
): Promise<void> {
  await (await stageFile(finalPath, content)).commit();
}

/**
 * Writes a whole file under its temporary name, ready for `commit()` or `publishTogether`; chunks from an
 * iterable are written as they come (a generator's need not all exist at once).
 */
export async function stageFile(
  finalPath: string,
  content: string | Iterable<Uint8Array>,
): Promise<OutputFile> {
  const file = await OutputFile.create(finalPath);
  try {
    for (const chunk of typeof content === 'string' ? [content] : content) await file.write(chunk);
    await file.sync();
    return file;
  } catch (error) {
    await file.discard();
    throw error;
  }
}
