/**
 * The text encodings a CSV input may be in. UTF-8 (with or without BOM) is read as it is, its invalid
 * bytes found by ./utf8-guard.ts; Windows-1252 and Latin-1, asked for with `--encoding`, are converted to
 * UTF-8 on the way in. Node decodes both itself: WHATWG's `TextDecoder('windows-1252')` (full ICU, in
 * every official Node build) and Buffer's `latin1`, which is ISO-8859-1 proper (0x80–0x9F are control
 * codes; WHATWG's "latin1" label means Windows-1252). A library such as iconv-lite would add a package
 * for two single-byte tables Node already has. Each byte is one character in both, so a chunk boundary
 * never splits one, and every byte has a character: nothing can be undecodable.
 */
import { Transform, type TransformCallback } from 'node:stream';

export const INPUT_ENCODINGS = ['utf-8', 'windows-1252', 'latin1'] as const;
export type InputEncoding = (typeof INPUT_ENCODINGS)[number];

/** A stream of `encoding` bytes in, UTF-8 bytes out. */
export function toUtf8(encoding: Exclude<InputEncoding, 'utf-8'>): Transform {
  const decode =
    encoding === 'latin1'
      ? (bytes: Buffer) => bytes.toString('latin1')
      : (() => {
          const decoder = new TextDecoder('windows-1252');
          return (bytes: Buffer) => decoder.decode(bytes, { stream: true });
        })();
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      callback(null, Buffer.from(decode(chunk), 'utf8'));
    },
  });
}
