/** Naming compiled code by address from V8's code map, where collected code's memory is reused. */
import { describe, expect, it } from 'vitest';
import { codeNames } from '../../bench/lib/code-map.js';

describe('codeNames', () => {
  it('scenario: code compiled into memory that collected code had occupied → the address is named after the later entry, though the earlier one starts nearer it', () => {
    // As in a CI run: a table builder's code ran once at load, and the prediction's optimized code was
    // later placed over the same memory, starting below it.
    const nameAt = codeNames(
      [
        '1040 200 JS:~segments file:///x/dist/src/model/spending-model.js:354:18',
        '2000 80 JS:*weigh file:///x/dist/src/model/composition.js:82:19',
        '1000 400 JS:*predict file:///x/dist/src/model/spending-model.js:130:12',
      ].join('\n'),
    );
    expect(nameAt(0x1100)).toMatch(/predict/);
    expect(nameAt(0x1000)).toMatch(/predict/);
    expect(nameAt(0x2010)).toMatch(/weigh/);
  });

  it('unit: an address no entry covers → undefined (callgrind names it instead)', () => {
    const nameAt = codeNames('1000 10 JS:*a file:///x/a.js:1:1\n1020 10 JS:*b file:///x/b.js:1:1');
    expect(nameAt(0x1010)).toBeUndefined();
    expect(nameAt(0x0fff)).toBeUndefined();
    expect(nameAt(0x102f)).toMatch(/b\.js/);
  });
});
