/**
 * One dictionary per dictionary-encoded column across an Arrow output file. An Arrow stream may replace a
 * column's dictionary between batches; the file format allows only additions (delta batches). When a batch
 * brings a dictionary other than the one written, its values join the written one (new values appended
 * as a delta, apache-arrow's writer emitting it) and its indices are rewritten to point into it. Values are
 * compared as JS values (binary ones byte for byte), so a dictionary of text, numbers or bytes is unified
 * exactly. `outlay merge --rows` unifies the dictionaries of the shards' files the same way.
 */
import {
  Data,
  DataType,
  type Dictionary,
  makeData,
  RecordBatch,
  type Schema,
  Struct,
  Vector,
  vectorFromArray,
} from '../../../src/vendor/apache-arrow.js';

type Key = string | number | bigint | boolean | null;
type Value = Key | Uint8Array;

export class DictionaryUnifier {
  private written: Vector | undefined;
  private positions: Map<Key, number> | undefined;

  /** The column's data, pointing into the dictionary written so far (grown by a delta when needed). */
  unify(data: Data<Dictionary>): Data<Dictionary> {
    const dictionary = data.dictionary!;
    if (this.written === undefined) this.written = dictionary;
    if (dictionary === this.written) return data;
    const positions = this.positionsOf(this.written);
    const added: Value[] = [];
    const remap = Int32Array.from(dictionary, (value: unknown) => {
      const key = keyOf(value, data.type.dictionary);
      let at = positions.get(key);
      if (at === undefined) {
        at = positions.size;
        positions.set(key, at);
        added.push(value as Value);
      }
      return at;
    });
    if (added.length > 0) {
      const delta = vectorFromArray(added, data.type.dictionary).data[0]!;
      this.written = new Vector([...this.written.data, delta]);
    }
    const indices = data.values;
    const rewritten = new (indices.constructor as new (length: number) => typeof indices)(data.length);
    const maxIndex = 2 ** (data.type.indices.bitWidth - (data.type.indices.isSigned ? 1 : 0)) - 1;
    if (positions.size - 1 > maxIndex)
      throw new Error(
        `a dictionary column's values no longer fit its ${data.type.indices} indices once unified`,
      );
    for (let i = 0; i < data.length; i++) rewritten[i] = remap[Number(indices[i])] ?? 0;
    return new Data(
      data.type,
      0,
      data.length,
      data.nullCount,
      [undefined, rewritten, bitsFrom(data)],
      [],
      this.written,
    ) as Data<Dictionary>;
  }

  private positionsOf(written: Vector): Map<Key, number> {
    if (this.positions === undefined) {
      this.positions = new Map();
      let at = 0;
      for (const value of written) this.positions.set(keyOf(value, written.type), at++);
    }
    return this.positions;
  }
}

/** A value's identity within one dictionary (whose values are all of one type): bytes as a latin1 string. */
function keyOf(value: unknown, type: DataType): Key {
  if (value === null || ['string', 'number', 'bigint', 'boolean'].includes(typeof value)) return value as Key;
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.length).toString('latin1');
  throw new Error(
    `a ${type} dictionary that differs between batches cannot be unified for one Arrow file (dictionaries of text, numbers, booleans or bytes can)`,
  );
}

/**
 * Batches of one schema, from several files, for one Arrow file: each dictionary-encoded column's
 * dictionary unified across them (a file's dictionary is another object, and apache-arrow's file writer
 * refuses a second dictionary for a column even when its values are the same). A column that cannot be
 * unified fails naming it.
 */
export class BatchDictionaries {
  private readonly unifiers: (DictionaryUnifier | undefined)[];

  constructor(private readonly schema: Schema) {
    this.unifiers = schema.fields.map((field) =>
      DataType.isDictionary(field.type) ? new DictionaryUnifier() : undefined,
    );
  }

  /** `batch` (of `schema`'s columns) pointing into the dictionaries written so far. */
  unify(batch: RecordBatch): RecordBatch {
    if (this.unifiers.every((unifier) => unifier === undefined)) return batch;
    const children = batch.data.children.map((child, c) => {
      const unifier = this.unifiers[c];
      if (unifier === undefined) return child;
      try {
        return unifier.unify(child as Data<Dictionary>);
      } catch (error) {
        throw new Error(
          `column "${this.schema.fields[c]!.name}": ${error instanceof Error ? error.message : error}`,
        );
      }
    });
    const type = new Struct(this.schema.fields);
    return new RecordBatch(this.schema, makeData({ type, length: batch.numRows, nullCount: 0, children }));
  }
}

/** The validity bits, moved to start at bit 0 when the data is a slice. */
function bitsFrom(data: Data): Uint8Array {
  if (data.nullCount === 0) return new Uint8Array(0);
  const bits = new Uint8Array(Math.ceil(data.length / 8));
  for (let i = 0; i < data.length; i++) if (data.getValid(i)) bits[i >> 3]! |= 1 << (i & 7);
  return bits;
}
