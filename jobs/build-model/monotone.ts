/** The running maximum of `values`: the least non-decreasing sequence at or above them. */
export function runningMax(values: readonly number[]): number[] {
  let max = Number.NEGATIVE_INFINITY;
  return values.map((v) => {
    max = Math.max(max, v);
    return max;
  });
}
