/** The UTF-8 guard's byte search against Node's own validator. */
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidUtf8Offsets } from '../../../../jobs/batch/io/utf8-guard.js';

describe('invalidUtf8Offsets', () => {
  it('property: finds no offset exactly when node:buffer isUtf8 accepts the bytes, and the first is where the valid prefix ends', () => {
    const text = fc.string({ unit: 'grapheme' }).map((s) => new TextEncoder().encode(s));
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 12 }),
      text,
      fc
        .tuple(text, fc.uint8Array({ maxLength: 3 }), text)
        .map(([a, b, c]) => Uint8Array.from([...a, ...b, ...c])),
    );
    fc.assert(
      fc.property(bytes, (input) => {
        const offsets = invalidUtf8Offsets(input);
        expect(offsets.length === 0).toBe(isUtf8(input));
        if (offsets.length > 0) {
          expect(isUtf8(input.subarray(0, offsets[0]))).toBe(true);
          expect(isUtf8(input.subarray(0, offsets[0]! + 4))).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('unit: a Windows-1252 é in ASCII text is named at its own offset', () => {
    expect(invalidUtf8Offsets(Buffer.from('zip,Jos\xe9,1', 'latin1'))).toEqual([7]);
  });
});
