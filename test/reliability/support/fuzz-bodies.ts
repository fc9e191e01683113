/**
 * Hostile request bodies for the API fuzz suite, as raw bytes with a content type, so that what cannot be
 * written with JSON.stringify can still be sent: duplicate keys, `__proto__`, 1e309, truncated text,
 * invalid UTF-8, wrong or missing content types. About a fifth are valid requests, so that the contract
 * invariants of 200 answers get exercised as hard as the error paths.
 */
import fc from 'fast-check';
import { CATEGORIES } from '../../../src/contract/categories.js';
import { LIMITS } from '../../../src/contract/limits.js';
import { knownZip5 } from '../../support/known-zips.js';

export interface FuzzBody {
  /** What the body tries, for the per-kind tally. */
  readonly kind: string;
  /** null: no content-type header at all. */
  readonly contentType: string | null;
  readonly body: Buffer;
}

const JSON_TYPE = 'application/json';
/** The server's default body limit (16 KiB); oversized bodies go past it. */
const BODY_LIMIT = 16 * 1024;

const json = (kind: string, text: string, contentType: string | null = JSON_TYPE): FuzzBody => ({
  kind,
  contentType,
  body: Buffer.from(text, 'utf8'),
});

/** ZIPs of real places in several states, plus any known 5-digit code or ZIP+4 (many resolve by fallback). */
const zip = fc.oneof(
  fc.constantFrom('30301', '10001', '94103', '60614', '77479', '35210', '99501', '00601', '96813', '02134'),
  knownZip5,
  fc.tuple(knownZip5, fc.stringMatching(/^[0-9]{4}$/)).map(([zip5, four]) => `${zip5}-${four}`),
);

const money = fc.oneof(
  fc.integer({ min: 0, max: 250_000 }),
  fc.double({ min: 0, max: LIMITS.amountMax, noNaN: true }),
  fc.constant(0),
);

const demographics = fc.record(
  {
    age: fc.integer({ min: LIMITS.ageMin, max: LIMITS.ageMax }),
    gross_annual_income: money,
    household_members: fc.integer({ min: LIMITS.householdMin, max: LIMITS.householdMax }),
    is_homeowner: fc.boolean(),
    net_annual_income: fc.oneof(
      fc.integer({ min: 1, max: 500_000 }),
      fc.double({ min: LIMITS.netIncomeMin, max: LIMITS.amountMax, noNaN: true }),
    ),
    zip,
  },
  { requiredKeys: ['net_annual_income', 'zip'] },
);

const givenBudget = fc.dictionary(fc.constantFrom(...CATEGORIES), money, { maxKeys: 8 });

/** A request the contract accepts. */
export const validRequest = fc.record(
  { demographics, budget: givenBudget },
  { requiredKeys: ['demographics'] },
);

/** JSON number tokens JSON.stringify cannot produce, and tokens that are not JSON at all. */
const rawNumberToken = fc.constantFrom(
  '1e309',
  '-1e309',
  '1e-400',
  '-0',
  '123456789012345678901234567890',
  '9007199254740993',
  '1.7976931348623157e308',
  '5e-324',
  '0.1e1',
  '1E5',
  'NaN',
  'Infinity',
  '-Infinity',
  '+1',
  '.5',
  '00012',
  '0x10',
);

/** Values of the wrong type or out of range for any field. */
const wrongValue = fc.oneof(
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '50000', '', ' ', '1e5', 'null', 'true', '١٢٣٤٥'),
  fc.constantFrom(
    null,
    true,
    false,
    [],
    {},
    -1,
    0,
    1.5,
    -0.5,
    LIMITS.amountMax + 1,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
  ),
  fc.double(),
  fc.integer(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A number token written into the JSON text as is, where a sentinel string stood. */
class RawToken {
  constructor(readonly text: string) {}
}

const SENTINEL = '@@raw@@';
const FIELDS = [
  'age',
  'gross_annual_income',
  'household_members',
  'is_homeowner',
  'net_annual_income',
  'zip',
] as const;

/** A valid request with one field (demographic or budget) replaced by something wrong. */
const oneFieldWrong = fc
  .tuple(
    validRequest,
    fc.constantFrom(...FIELDS, ...CATEGORIES.slice(0, 6)),
    fc.oneof(
      wrongValue,
      rawNumberToken.map((token) => new RawToken(token)),
    ),
  )
  .map(([request, field, value]) => {
    const copy = structuredClone(request) as {
      demographics: Record<string, unknown>;
      budget?: Record<string, unknown>;
    };
    const inDemographics = (FIELDS as readonly string[]).includes(field);
    const section = inDemographics ? copy.demographics : (copy.budget ?? {});
    if (!inDemographics) copy.budget = section;
    if (value instanceof RawToken) {
      section[field] = SENTINEL;
      return json('raw number token', JSON.stringify(copy).replace(JSON.stringify(SENTINEL), value.text));
    }
    section[field] = value;
    return json('wrong type or range', JSON.stringify(copy));
  });

/** Keys that try prototype pollution, at the top, in demographics or in budget. */
const pollutionKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  '__defineGetter__',
);
const prototypePollution = fc
  .tuple(
    validRequest,
    pollutionKey,
    fc.constantFrom('top', 'demographics', 'budget'),
    fc.jsonValue({ maxDepth: 2 }),
  )
  .map(([request, key, where, value]) => {
    const injected = `${JSON.stringify(key)}:${key === 'constructor' ? '{"prototype":{"isAdmin":true}}' : JSON.stringify(value ?? null)}`;
    const body = JSON.stringify({ ...request, budget: request.budget ?? {} });
    const anchor = where === 'top' ? '{' : where === 'demographics' ? '"demographics":{' : '"budget":{';
    const at = body.indexOf(anchor) + anchor.length;
    const rest = body.slice(at);
    return json(
      'prototype pollution key',
      `${body.slice(0, at)}${injected}${rest.startsWith('}') ? '' : ','}${rest}`,
    );
  });

/** The same key twice in one object: JSON.parse keeps the last, and so must the server, consistently. */
const duplicateKeys = fc.tuple(validRequest, validRequest, fc.boolean()).map(([first, second, inner]) => {
  if (!inner) {
    return json(
      'duplicate keys',
      `{"demographics":${JSON.stringify(first.demographics)},"demographics":${JSON.stringify(second.demographics)}}`,
    );
  }
  const a = JSON.stringify(first.demographics).slice(1, -1);
  const b = JSON.stringify(second.demographics).slice(1, -1);
  return json('duplicate keys', `{"demographics":{${a},${b}}}`);
});

/** Depths that stay under the body limit: 2 bytes a level for arrays, 6 for objects. */
const MAX_ARRAY_DEPTH = 8_000;
const MAX_OBJECT_DEPTH = 2_600;

const deepNesting = fc
  .tuple(fc.integer({ min: 10, max: MAX_ARRAY_DEPTH }), fc.constantFrom('array', 'object', 'in zip'))
  .map(([depth, shape]) => {
    if (shape === 'array') return json('deep nesting', `${'['.repeat(depth)}${']'.repeat(depth)}`);
    const levels = Math.min(depth, MAX_OBJECT_DEPTH);
    const nested = `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    return json(
      'deep nesting',
      shape === 'object' ? nested : `{"demographics":{"net_annual_income":1,"zip":${nested}}}`,
    );
  });

const longStrings = fc
  .tuple(
    fc.integer({ min: 100, max: 15_000 }),
    fc.constantFrom('zip', 'key', 'value'),
    fc.constantFrom('x', '9', 'é', '😀', '\u0000'),
  )
  .map(([length, where, unit]) => {
    const long = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
    const body =
      where === 'zip'
        ? { demographics: { net_annual_income: 50_000, zip: long } }
        : where === 'key'
          ? { demographics: { net_annual_income: 50_000, zip: '30301', [long]: 1 } }
          : { demographics: { net_annual_income: 50_000, zip: '30301' }, note: long };
    return json('long string', JSON.stringify(body));
  });

const unicode = fc
  .tuple(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 30 }))
  .map(([binary, grapheme]) =>
    json(
      'unicode',
      JSON.stringify({ demographics: { net_annual_income: 40_000, zip: binary, [grapheme]: binary } }),
    ),
  );

/** Bytes that are not UTF-8 (a Latin-1 é, a UTF-16 body, a lone continuation byte) inside JSON. */
const invalidUtf8 = fc
  .constantFrom(
    Buffer.concat([
      Buffer.from('{"demographics":{"net_annual_income":1,"zip":"3030'),
      Buffer.from([0xe9]),
      Buffer.from('"}}'),
    ]),
    Buffer.from('{"demographics":{"net_annual_income":1,"zip":"30301"}}', 'utf16le'),
    Buffer.from([0x7b, 0x22, 0x80, 0x22, 0x3a, 0x31, 0x7d]),
    Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('{"demographics":{"net_annual_income":1,"zip":"30301"}}')]),
  )
  .map((body) => ({ kind: 'invalid UTF-8 or BOM', contentType: JSON_TYPE, body }));

const oversized = fc
  .tuple(
    validRequest,
    fc.integer({ min: 1, max: 4 * BODY_LIMIT }),
    fc.constantFrom('padding field', 'whitespace'),
  )
  .map(([request, extra, how]) => {
    const text = JSON.stringify(request);
    const size = BODY_LIMIT + extra;
    return json(
      'oversized',
      how === 'whitespace'
        ? text + ' '.repeat(size - text.length)
        : JSON.stringify({ ...request, pad: 'x'.repeat(size) }),
    );
  });

const wrongContentType = fc
  .tuple(
    validRequest,
    fc.constantFrom(
      null,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/jsonx',
      'application/json-patch+json',
      'json',
      '',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'APPLICATION/JSON',
      'application/json;;;',
      'text/json',
      '*/*',
    ),
  )
  .map(([request, contentType]) => json('content type', JSON.stringify(request), contentType));

const truncated = fc
  .tuple(validRequest, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }))
  .map(([request, cut]) => {
    const text = JSON.stringify(request);
    return json('truncated JSON', text.slice(0, Math.floor(cut * text.length)));
  });

const notAnObject = fc
  .oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.constantFrom('', ' ', 'null', '[]', '"x"', '0', 'true', '{}', '{"demographics":null}'),
  )
  .map((value) => json('random JSON', typeof value === 'string' ? value : JSON.stringify(value ?? null)));

/** One generated body of any kind; weights keep about 20% valid and spread the rest over the attacks. */
export const fuzzBody: fc.Arbitrary<FuzzBody> = fc.oneof(
  { arbitrary: validRequest.map((request) => json('valid', JSON.stringify(request))), weight: 20 },
  { arbitrary: oneFieldWrong, weight: 20 },
  { arbitrary: notAnObject, weight: 8 },
  { arbitrary: prototypePollution, weight: 8 },
  { arbitrary: duplicateKeys, weight: 6 },
  { arbitrary: deepNesting, weight: 5 },
  { arbitrary: longStrings, weight: 6 },
  { arbitrary: unicode, weight: 6 },
  { arbitrary: invalidUtf8, weight: 3 },
  { arbitrary: oversized, weight: 6 },
  { arbitrary: wrongContentType, weight: 6 },
  { arbitrary: truncated, weight: 6 },
);
