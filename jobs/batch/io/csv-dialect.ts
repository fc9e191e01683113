/**
 * The field delimiter of a CSV input: `--delimiter` when given, else read off the header line. Excel
 * writes `;` where the decimal separator is a comma, and tab for "Unicode text"; so the rule is: the most
 * frequent of comma, semicolon and tab in the header line outside quotes, comma when there is none (or on
 * a tie, comma before semicolon before tab). Only the header decides: values are never looked at.
 */
import type { Readable } from 'node:stream';

const CANDIDATES = [',', ';', '\t'] as const;
/** How much of the input is read to find the end of the header line. */
const HEAD_LIMIT = 1 << 20;

/** `--delimiter`: one character, or the word `tab`. */
export function parseDelimiter(text: string): string {
  const delimiter = text === 'tab' || text === '\\t' ? '\t' : text;
  if ([...delimiter].length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r')
    throw new Error(
      `--delimiter ${JSON.stringify(text)}: expected one character (e.g. ";" or "|") or "tab", not a quote or line break`,
    );
  return delimiter;
}

/** The delimiter the rule above reads off the header line of `head` (decoded text). */
export function detectDelimiter(head: string): string {
  const counts = new Map<string, number>(CANDIDATES.map((c) => [c, 0]));
  let quoted = false;
  for (const char of head) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best: string = ',';
  for (const candidate of CANDIDATES) if (counts.get(candidate)! > counts.get(best)!) best = candidate;
  return best;
}

/**
 * The record delimiters csv-parse is given, read off the header line of `head` (decoded text): CRLF and LF
 * both, whichever the header ends with, so that a carriage return before a line feed is never part of a
 * value (an LF file with CRLF rows appended, or a CRLF header over LF rows); a lone CR only in a file whose
 * header ends with one (classic Mac OS), where it is the only line break.
 */
export function detectRecordDelimiters(head: string): string[] {
  let quoted = false;
  for (let i = 0; i < head.length; i++) {
    const char = head[i];
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === '\r' && i + 1 < head.length && head[i + 1] !== '\n') return ['\r'];
    else if (!quoted && (char === '\n' || char === '\r')) break;
  }
  return ['\r\n', '\n'];
}

/**
 * The first bytes of `stream` up to and including its first line break (or HEAD_LIMIT bytes, or the end),
 * put back so that the stream still reads from its start.
 */
export async function peekHead(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for (;;) {
    const chunk = await nextChunk(stream);
    if (chunk === null) break;
    chunks.push(chunk);
    length += chunk.length;
    if (chunk.includes(0x0a) || chunk.includes(0x0d) || length >= HEAD_LIMIT) break;
  }
  const head = Buffer.concat(chunks);
  if (head.length > 0) stream.unshift(head);
  return head;
}

/** The next chunk of a paused stream, or null at its end. */
function nextChunk(stream: Readable): Promise<Buffer | null> {
  if (stream.readableEnded) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const settle = (then: () => void) => {
      stream.off('readable', tryRead);
      stream.off('end', onEnd);
      stream.off('error', onError);
      then();
    };
    const onError = (error: Error) => settle(() => reject(error));
    const tryRead = () => {
      const chunk: Buffer | null = stream.read();
      if (chunk !== null) settle(() => resolve(chunk));
    };
    const onEnd = () => settle(() => resolve(null));
    stream.on('readable', tryRead);
    stream.on('end', onEnd);
    stream.on('error', onError);
    tryRead();
  });
}
