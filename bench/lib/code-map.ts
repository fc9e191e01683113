/** Reading V8's code map (`--perf-basic-prof`, /tmp/perf-<pid>.map): which compiled code was at an address. */

/**
 * The name of the compiled code at an address, from V8's code map. V8 appends an entry for each code
 * object it compiles and reuses the memory of code it has collected, so entries overlap: the one written
 * last is the code that ran there afterwards. (Taking the overlapping entry with the highest start
 * instead named the model's prediction after a table builder that ran once at load, in some runs.)
 */
export function codeNames(perfMap: string): (address: number) => string | undefined {
  const ranges = perfMap
    .trim()
    .split('\n')
    .map((line, written) => {
      const [start, size, ...name] = line.split(' ');
      const from = Number.parseInt(start!, 16);
      return { start: from, end: from + Number.parseInt(size!, 16), name: name.join(' '), written };
    })
    .sort((a, b) => a.start - b.start);
  const longest = ranges.reduce((most, range) => Math.max(most, range.end - range.start), 0);
  const named = new Map<number, string | undefined>();
  return (address) => {
    if (named.has(address)) return named.get(address);
    // The last range starting at or before the address, then back over every range long enough to reach it.
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ranges[mid]!.start <= address) lo = mid + 1;
      else hi = mid - 1;
    }
    let latest: (typeof ranges)[number] | undefined;
    for (let i = hi; i >= 0 && address - ranges[i]!.start < longest; i--) {
      const range = ranges[i]!;
      if (address < range.end && (latest === undefined || range.written > latest.written)) latest = range;
    }
    named.set(address, latest?.name);
    return latest?.name;
  };
}
