/**
 * How request bodies are read: JSON only, uncompressed, each object key at most once.
 *
 * - A key given twice (`{"net_annual_income": -5, "net_annual_income": 42000}`) is refused with 400
 *   naming it: JSON.parse keeps the last value, a gateway or logger in front may keep the first, and the
 *   two must not disagree about what was asked.
 * - A compressed body (`Content-Encoding: gzip`, `deflate`, `br`, anything but `identity`) is refused
 *   with 415 before it is read, instead of failing as "not JSON".
 * - With `acceptTextPlainJson`, a body labelled text/plain is read as JSON, exactly as application/json
 *   is; Fastify's default text/plain parser would let other bodies through.
 */
import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { invalidRequest } from '../contract/validate.js';

/** The content-type of every JSON answer, including those serialised with JSON.stringify. */
export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

/** Raised by the body parser for a repeated key; errors.ts answers it with the contract's 400. */
export class DuplicateKeyError extends Error {
  readonly statusCode = 400;
  readonly code = 'OUTLAY_DUPLICATE_KEY';
  constructor(readonly pointer: string) {
    super(`duplicate key at ${pointer}`);
  }
}

export const unsupportedEncoding = (encoding: string) =>
  Object.freeze({
    ...invalidRequest([
      {
        path: '',
        message: `content-encoding ${encoding} is not supported: send the body uncompressed`,
      },
    ]),
    message: 'Unsupported Media Type',
  });

type Frame = { keys: Set<string>; key: string } | { index: number };

const escapeSegment = (segment: string | number) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1');

/** End of the JSON string starting at `start` (its opening quote): the index of its closing quote. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  // A quote preceded by an odd number of backslashes is escaped.
  for (;;) {
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/** The key a string token names, decoded when it has escapes (`"a"` and `"\u0061"` are one key). */
const keyOf = (raw: string): string => (raw.includes('\\') ? JSON.parse(raw) : raw.slice(1, -1));

/** Where the scan is: the open objects (their keys so far) and arrays (the current index). */
class Nesting {
  private readonly stack: Frame[] = [];
  /** Whether the next string is an object's key (after `{` or an object's `,`). */
  expectsKey = false;

  /** Records `key` in the innermost object; the pointer to it if that object already had it. */
  addKey(key: string): string | undefined {
    const top = this.stack.at(-1) as { keys: Set<string>; key: string };
    this.expectsKey = false;
    if (top.keys.has(key)) return this.pointerTo(key);
    top.keys.add(key);
    top.key = key;
    return undefined;
  }

  /** Follows `{`, `[`, `}`, `]` and `,`; every other character outside strings changes nothing. */
  structural(c: number): void {
    if (c === 0x7b /* { */) {
      this.stack.push({ keys: new Set(), key: '' });
      this.expectsKey = true;
    } else if (c === 0x5b /* [ */) this.stack.push({ index: 0 });
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) this.stack.pop();
    else if (c === 0x2c /* , */) {
      const top = this.stack.at(-1)!;
      if ('keys' in top) this.expectsKey = true;
      else top.index++;
    }
  }

  private pointerTo(key: string): string {
    const parents = this.stack.slice(0, -1).map((frame) => ('keys' in frame ? frame.key : frame.index));
    return [...parents, key].map((segment) => `/${escapeSegment(segment)}`).join('');
  }
}

/**
 * The JSON pointer of the first key that an object of `text` repeats, or undefined. `text` must be valid
 * JSON (it is scanned after JSON.parse accepted it), so the scan only tracks strings, nesting and commas.
 */
export function firstDuplicateKey(text: string): string | undefined {
  const nesting = new Nesting();
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x22 /* " */) {
      nesting.structural(c);
      continue;
    }
    const end = stringEnd(text, i);
    if (nesting.expectsKey) {
      const repeated = nesting.addKey(keyOf(text.slice(i, end + 1)));
      if (repeated !== undefined) return repeated;
    }
    i = end;
  }
  return undefined;
}

/** Whether a body sent with this Content-Encoding would have to be decompressed first. */
const isEncoded = (encoding: string | undefined) =>
  encoding !== undefined && encoding.trim().toLowerCase() !== 'identity' && encoding.trim() !== '';

export function readJsonBodiesOnly(app: FastifyInstance, acceptTextPlainJson: boolean): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const parser: FastifyBodyParser<string> = (request, body, done) =>
    parseJson(request, body, (error, value) => {
      if (error !== null) return done(error);
      const duplicate = firstDuplicateKey(body);
      done(duplicate === undefined ? null : new DuplicateKeyError(duplicate), value);
    });
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parser);
  if (acceptTextPlainJson) app.addContentTypeParser('text/plain', { parseAs: 'string' }, parser);
  // Before the body is read (and after the key is checked, in onRequest).
  app.addHook('preParsing', (request, reply, payload, done) => {
    const encoding = request.headers['content-encoding'];
    if (!isEncoded(encoding)) return done(null, payload);
    reply.code(415).send(unsupportedEncoding(encoding!.trim()));
  });
}
