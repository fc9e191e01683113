/**
 * `outlay merge --rows`: the shards' scored and rejects files as one of each, the shards in order. Shards
 * hold consecutive rows (`--shard I/N`), so their files one after the other are the single run's: a CSV's
 * header once, then every shard's records as they are; an Arrow file's record batches, shard after shard,
 * rewritten by apache-arrow's file writer as the job writes them. A gzip-compressed scored CSV is
 * decompressed, concatenated and compressed again: it decompresses to the single run's bytes, though the
 * compressed bytes may differ. Parquet scored files are not merged (their row groups would have to be
 * re-encoded): the job stops naming them.
 */
import { createReadStream, existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { createGunzip, createGzip } from 'node:zlib';
import type { RecordBatchFileWriter, Schema } from '../../../src/vendor/apache-arrow.js';
import { OutputFile } from '../io/output-file.js';
import type { BatchDictionaries } from '../score/arrow-dictionary.js';

/** The scored file endings `outlay score` writes, in the order looked for. */
const SCORED_ENDINGS = ['csv', 'csv.gz', 'arrow', 'parquet'] as const;
type ScoredEnding = (typeof SCORED_ENDINGS)[number];

/** One shard's directory and the base name of its files. */
export interface ShardFiles {
  readonly dir: string;
  readonly name: string;
}

/** Writes the merged scored and rejects files under temporary names, for publishing with the summary. */
export async function stageMergedRows(
  shards: readonly ShardFiles[],
  outDir: string,
  name: string,
  stop?: AbortSignal,
): Promise<OutputFile[]> {
  const ending = scoredEndingOf(shards[0]!);
  const scoredOf = (shard: ShardFiles) => join(shard.dir, `${shard.name}.scored.${ending}`);
  const rejectsOf = (shard: ShardFiles) => join(shard.dir, `${shard.name}.rejects.csv`);
  for (const shard of shards)
    for (const path of [scoredOf(shard), rejectsOf(shard)])
      if (!existsSync(path)) throw new Error(`merge --rows: ${path} is missing`);
  const files: OutputFile[] = [];
  try {
    const scored = await OutputFile.create(join(outDir, `${name}.scored.${ending}`));
    files.push(scored);
    const rejects = await OutputFile.create(join(outDir, `${name}.rejects.csv`));
    files.push(rejects);
    await writeScored(ending, shards.map(scoredOf), scored, stop);
    await writeChunks(rejects, concatenatedCsv(shards.map(rejectsOf)), stop);
    return files;
  } catch (error) {
    await discardAll(files);
    throw error;
  }
}

/** Removes the temporary files of a merge that will not be published. */
export async function discardAll(files: readonly OutputFile[]): Promise<void> {
  for (const file of files) await file.discard();
}

function scoredEndingOf(shard: ShardFiles): ScoredEnding {
  const ending = SCORED_ENDINGS.find((e) => existsSync(join(shard.dir, `${shard.name}.scored.${e}`)));
  if (ending === undefined) throw new Error(`merge --rows: no ${shard.name}.scored.* in ${shard.dir}`);
  if (ending === 'parquet')
    throw new Error(
      'merge --rows: Parquet scored files are not merged; score with --format arrow or csv to merge rows, or read the shard files as one dataset',
    );
  return ending;
}

async function writeScored(
  ending: ScoredEnding,
  paths: string[],
  file: OutputFile,
  stop: AbortSignal | undefined,
): Promise<void> {
  if (ending === 'arrow') return writeChunks(file, concatenatedArrow(paths), stop);
  if (ending === 'csv') return writeChunks(file, concatenatedCsv(paths), stop);
  const gzip = createGzip();
  const written = writeChunks(file, gzip);
  for await (const chunk of concatenatedCsv(paths, true)) {
    stop?.throwIfAborted();
    if (!gzip.write(chunk)) await once(gzip);
  }
  gzip.end();
  await written;
}

const once = (stream: NodeJS.WritableStream) => new Promise((resolve) => stream.once('drain', resolve));

/** Writes the chunks to the file; a stop signal (SIGTERM, SIGINT) ends it between two chunks. */
async function writeChunks(
  file: OutputFile,
  chunks: AsyncIterable<Uint8Array>,
  stop?: AbortSignal,
): Promise<void> {
  for await (const chunk of chunks) {
    stop?.throwIfAborted();
    await file.write(chunk as Buffer);
  }
}

/** The CSV files' bytes, the first whole, the others without their header, which must be the first's. */
async function* concatenatedCsv(paths: string[], gzipped = false): AsyncIterable<Uint8Array> {
  let header: Buffer | undefined;
  for (const path of paths) {
    const stream = gzipped ? createReadStream(path).pipe(createGunzip()) : createReadStream(path);
    const chunks = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    const { own, rest } = await splitHeader(chunks, path);
    if (header === undefined) header = own;
    else if (!own.equals(header))
      throw new Error(`merge --rows: ${path} has other columns than the first shard's file`);
    if (path === paths[0]) yield own;
    yield rest;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
}

/** The header record (with its LF) read off `chunks`, and the bytes read after it. */
async function splitHeader(
  chunks: AsyncIterator<Buffer>,
  path: string,
): Promise<{ own: Buffer; rest: Buffer }> {
  let pending = Buffer.alloc(0);
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    pending = Buffer.concat([pending, next.value]);
    const end = headerEnd(pending);
    if (end >= 0) return { own: pending.subarray(0, end), rest: pending.subarray(end) };
  }
  throw new Error(`merge --rows: ${path} has no complete header`);
}

/** Bytes of the header record with its LF (-1: not all there yet); its names may be quoted. */
function headerEnd(bytes: Buffer): number {
  let quoted = false;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x22) quoted = !quoted;
    else if (bytes[i] === 0x0a && !quoted) return i + 1;
  }
  return -1;
}

/**
 * One Arrow IPC file of the files' record batches, in order. A failure closes the writer, so that the
 * bytes it queued drain and the failure reaches the caller (which discards the temporary files) rather
 * than ending the process as an unhandled rejection.
 */
async function* concatenatedArrow(paths: string[]): AsyncIterable<Uint8Array> {
  const { RecordBatchFileWriter } = await import('../../../src/vendor/apache-arrow.js');
  const writer = new RecordBatchFileWriter();
  const chunks = writer[Symbol.asyncIterator]();
  let failure: unknown;
  const filled = writeArrowFiles(writer, paths).catch((error: unknown) => {
    failure = error;
    writer.close();
  });
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  await filled;
  if (failure !== undefined) throw failure;
}

/**
 * Writes the files' batches, which must have the first file's columns, each dictionary column's
 * dictionaries unified across the files (jobs/batch/score/arrow-dictionary.ts): every shard's file holds
 * a dictionary of its own, and the Arrow file format allows one per column. Failures name the file.
 */
async function writeArrowFiles(writer: RecordBatchFileWriter, paths: string[]): Promise<void> {
  const { RecordBatchReader, util } = await import('../../../src/vendor/apache-arrow.js');
  const { BatchDictionaries } = await import('../score/arrow-dictionary.js');
  let first: { schema: Schema; dictionaries: BatchDictionaries } | undefined;
  let wrote = false;
  for (const path of paths) {
    const handle = await open(path, 'r');
    try {
      const reader = await RecordBatchReader.from(handle)
        .then((opened) => opened.open())
        .catch((error: unknown) => {
          throw new Error(
            `not a readable Arrow IPC file (${error instanceof Error ? error.message : error})`,
          );
        });
      first ??= { schema: reader.schema, dictionaries: new BatchDictionaries(reader.schema) };
      if (!util.compareSchemas(first.schema, reader.schema))
        throw new Error("it has other columns than the first shard's file");
      for await (const batch of reader) {
        writer.write(first.dictionaries.unify(batch));
        wrote = true;
      }
    } catch (error) {
      throw new Error(`merge --rows: ${path}: ${error instanceof Error ? error.message : error}`);
    } finally {
      await handle.close();
    }
  }
  if (!wrote) writer.reset(undefined, first?.schema);
  writer.finish();
}
