/**
 * A zeroed typed array whose elements never move, however short it is.
 *
 * V8 keeps the elements of a typed array of at most 64 bytes made with `new T(length)` inside its heap,
 * where the garbage collector may move them, so optimized code reloads their address and length on
 * every access. Elements in an ArrayBuffer of their own live outside the heap, and when such an array is
 * a constant of the only closure of its function (the engine's bound loops), V8 folds its address and
 * length into the compiled code, as it already did for the longer arrays. For the engine's short
 * buffers (the 38 fixed-expense flags, the composition's weights and terms, the score values) this
 * took 3–8 % off the evaluation (bench/analysis/engine.md, seventh round).
 */
export function fixedAddressArray<T>(
  Type: { new (buffer: ArrayBuffer): T; readonly BYTES_PER_ELEMENT: number },
  length: number,
): T {
  return new Type(new ArrayBuffer(length * Type.BYTES_PER_ELEMENT));
}
