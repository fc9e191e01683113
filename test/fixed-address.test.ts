import { describe, expect, it } from 'vitest';
import { fixedAddressArray } from '../src/fixed-address.js';

describe('fixedAddressArray', () => {
  it('fixedAddressArray: a short array → zeroed, of the type and length asked, on a buffer of its own', () => {
    const flags = fixedAddressArray(Uint8Array, 38);
    const values = fixedAddressArray(Float64Array, 3);
    expect(flags).toBeInstanceOf(Uint8Array);
    expect(values).toBeInstanceOf(Float64Array);
    expect([...flags]).toEqual(new Array(38).fill(0));
    expect([...values]).toEqual([0, 0, 0]);
    expect(flags.buffer.byteLength).toBe(38);
    expect(values.buffer.byteLength).toBe(24);
    expect(flags.buffer).not.toBe(values.buffer);
  });
});
