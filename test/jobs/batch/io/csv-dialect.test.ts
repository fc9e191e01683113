/** CSV dialect: the delimiter rule on header lines as spreadsheets export them, and `--delimiter` checks. */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { detectDelimiter, parseDelimiter, peekHead } from '../../../../jobs/batch/io/csv-dialect.js';

describe('CSV delimiter', () => {
  it.each([
    ['net_annual_income,zip\n1;2\n', ','],
    ['Net Annual Income;Zip;Age\n1,5;2;3\n', ';'],
    ['net_annual_income\tzip\n', '\t'],
    ['"a;b;c",zip\n', ','],
    ['"income, net";zip;age\r\n', ';'],
    ['net_annual_income\n', ','],
    ['a;b,c\n', ','],
  ])(
    'unit: header %j → delimiter %j (most frequent outside quotes; comma on none or a tie)',
    (head, expected) => {
      expect(detectDelimiter(head)).toBe(expected);
    },
  );

  it.each([
    ['tab', '\t'],
    [';', ';'],
    ['|', '|'],
  ])('unit: --delimiter %j → %j', (text, expected) => {
    expect(parseDelimiter(text)).toBe(expected);
  });

  it.each(['', ';;', '"', '\n'])('unit: --delimiter %j → an error naming the option', (text) => {
    expect(() => parseDelimiter(text)).toThrow(/--delimiter/);
  });

  it('unit: peeking at the header line leaves the stream reading from its start', async () => {
    const stream = Readable.from([Buffer.from('a;b'), Buffer.from(';c\n1;2;3\n'), Buffer.from('4;5;6\n')], {
      objectMode: false,
    });
    const head = await peekHead(stream);
    expect(head.toString()).toBe('a;b;c\n1;2;3\n');
    const all: Buffer[] = [];
    for await (const chunk of stream) all.push(chunk as Buffer);
    expect(Buffer.concat(all).toString()).toBe('a;b;c\n1;2;3\n4;5;6\n');
  });

  it('unit: peeking at an empty stream → empty head, no hang', async () => {
    expect((await peekHead(Readable.from([], { objectMode: false }))).length).toBe(0);
  });
});
