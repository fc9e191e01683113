/**
 * The I/O floor of the batch job: parse the input with csv-parse and write as many columns as
 * `outlay score` writes with csv-stringify, streaming, with no engine work. `outlay score` cannot be faster
 * than this on the same stack, so its wall time is reported as a multiple of this one.
 *
 * Usage: node dist/bench/stack/csv-io-floor.js <input.csv> <output.csv>
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import { CATEGORIES } from '../../src/contract/categories.js';

// Values as wide as real results (whole-dollar amounts, one-decimal scores, a CBSA code), so the bytes
// written match the real output.
const SCORED_HEADER = [
  ...CATEGORIES.map((c) => `budget_${c}`),
  ...CATEGORIES.map((c) => `model_${c}`),
  'predicted_saving_ability',
  'outlay_score',
  'savings_score',
  'geo_level',
  'state',
  'cbsa',
];
const SCORED_VALUES = [
  ...CATEGORIES.map((_, i) => String(1200 + i * 37)),
  ...CATEGORIES.map((_, i) => String(1100 + i * 41)),
  '391',
  '91.2',
  '88.7',
  'zip',
  'CA',
  '31080',
];

const [input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) {
  process.stderr.write('usage: csv-io-floor <input.csv> <output.csv>\n');
  process.exit(1);
}

let isHeader = true;
const appendScoredColumns = new Transform({
  objectMode: true,
  transform(record: string[], _encoding, callback) {
    const tail = isHeader ? SCORED_HEADER : SCORED_VALUES;
    isHeader = false;
    callback(null, record.concat(tail));
  },
});

await pipeline(
  createReadStream(input),
  parse({ bom: true }),
  appendScoredColumns,
  stringify(),
  createWriteStream(output),
);
