/**
 * The input's SHA-256: recorded in the summary (so `outlay merge` can refuse shards of different inputs
 * that share a file name) and part of a checkpoint's fingerprint (so an input edited in place, even with its
 * size and mtime restored, is never resumed against rows scored from its old content).
 *
 * A file is hashed in a read of its own, started before the scorer so the two overlap: a resumed run needs
 * the digest before it reads its first row. Standard input can be read once only, so it is hashed as the
 * job reads it, and its digest is known once it has been read to the end.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

export type InputDigest = Promise<string>;

/** Starts hashing `input` (`-`: standard input, as the job reads it); call before the input is opened. */
export function digestInput(input: string): InputDigest {
  const digest = input === '-' ? digestStdin() : digestFile(input);
  // Awaited where the digest is needed; a failed read of the input is reported by the job's own read.
  digest.catch(() => undefined);
  return digest;
}

async function digestFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

function digestStdin(): Promise<string> {
  const hash = createHash('sha256');
  const stdin = process.stdin;
  stdin.on('data', (chunk: Buffer) => hash.update(chunk));
  // Listening set the stream flowing; paused again, no chunk passes before the CSV reader is piped to it.
  stdin.pause();
  return new Promise((resolve, reject) => {
    stdin.once('end', () => resolve(hash.digest('hex')));
    stdin.once('error', reject);
  });
}
