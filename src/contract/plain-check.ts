/**
 * A fast accept-only check of plain data against a schema, built from the schema itself (so the bounds,
 * patterns, required fields and allowed keys have one source of truth). TypeBox's compiled check lists
 * every property of the request schema (38 budget categories) and tests each own key with a regular
 * expression; this one only visits the keys a body has, which is what a typical request costs.
 *
 * It accepts a value only if the compiled TypeBox check would, and for JSON-shaped values (plain objects
 * and arrays, strings, finite numbers, booleans, null) it accepts exactly those values. Values it does
 * not vouch for — class instances, arrays where an object is expected, anything invalid — are left to
 * the TypeBox check, so error messages keep coming from one place.
 */
import type { TSchema } from '../vendor/typebox.js';

export type PlainCheck = (value: unknown) => boolean;

/** Keywords this check implements; a schema using any other (e.g. multipleOf) fails at load, not silently. */
const UNDERSTOOD = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'pattern',
  'enum',
  'description',
]);

export function plainCheck(schema: TSchema): PlainCheck {
  const keywords = understood(schema);
  switch (keywords.type) {
    case 'object':
      return objectCheck(fieldsOf(keywords));
    case 'number':
    case 'integer':
      return numberCheck(keywords);
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'string':
      return stringCheck(keywords);
    default:
      throw new Error(`plain check: unsupported schema type ${JSON.stringify(keywords.type)}`);
  }
}

export interface PlainField {
  readonly check: PlainCheck;
  readonly required: boolean;
}

/**
 * The fields of an object schema: each property's check and whether it is required. For a caller that
 * knows which keys its objects have (`FixedShapeRequests`) and so can check them without listing them.
 */
export function plainFields(schema: TSchema): ReadonlyMap<string, PlainField> {
  const keywords = understood(schema);
  if (keywords.type !== 'object') throw new Error('plain check: fields of a schema that is not an object');
  return fieldsOf(keywords);
}

function fieldsOf({
  properties,
  required = [],
  additionalProperties,
}: Record<string, unknown>): ReadonlyMap<string, PlainField> {
  // With other properties allowed, a key outside the schema would need no check at all; the request
  // schemas never allow them, so that case is not implemented.
  if (additionalProperties !== false)
    throw new Error('plain check: objects must forbid additional properties');
  const requiredNames = new Set(required as string[]);
  return new Map<string, PlainField>(
    Object.entries(properties as Record<string, TSchema>).map(([name, property]) => [
      name,
      { check: plainCheck(property), required: requiredNames.has(name) },
    ]),
  );
}

function understood(schema: TSchema): Record<string, unknown> {
  const keywords = schema as Record<string, unknown>;
  for (const keyword of Object.keys(keywords)) {
    if (!UNDERSTOOD.has(keyword)) throw new Error(`plain check: unsupported schema keyword "${keyword}"`);
  }
  return keywords;
}

function objectCheck(fields: ReadonlyMap<string, PlainField>): PlainCheck {
  const requiredCount = [...fields.values()].filter((field) => field.required).length;
  return (value) => {
    if (typeof value !== 'object' || value === null) return false;
    // TypeBox reads fields with `in` and property access, which also see a prototype's getters; only
    // plain objects have no such prototype (short of a polluted Object.prototype).
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return false;
    // Own names, not for-in: a non-enumerable unknown key must be refused, as TypeBox refuses it.
    const names = Object.getOwnPropertyNames(value);
    let requiredSeen = 0;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const field = fields.get(name);
      if (field === undefined) return false;
      const fieldValue = (value as Record<string, unknown>)[name];
      if (field.required) requiredSeen++;
      // An optional field present as `undefined` counts as absent, as in TypeBox.
      else if (fieldValue === undefined) continue;
      if (!field.check(fieldValue)) return false;
    }
    return requiredSeen === requiredCount;
  };
}

function numberCheck(schema: Record<string, unknown>): PlainCheck {
  const bound = (keyword: string, otherwise: number) => {
    const value = schema[keyword];
    return typeof value === 'number' ? value : otherwise;
  };
  const minimum = bound('minimum', -Infinity);
  const exclusiveMinimum = bound('exclusiveMinimum', -Infinity);
  const maximum = bound('maximum', Infinity);
  const exclusiveMaximum = bound('exclusiveMaximum', Infinity);
  const isNumber = schema.type === 'integer' ? Number.isInteger : Number.isFinite;
  return (value) =>
    isNumber(value) &&
    (value as number) >= minimum &&
    (value as number) > exclusiveMinimum &&
    (value as number) <= maximum &&
    (value as number) < exclusiveMaximum;
}

function stringCheck({ pattern, enum: allowed }: Record<string, unknown>): PlainCheck {
  if (allowed !== undefined) {
    if (pattern !== undefined) throw new Error('plain check: a string with both enum and pattern');
    const values = new Set(allowed as string[]);
    return (value) => typeof value === 'string' && values.has(value);
  }
  if (pattern === undefined) return (value) => typeof value === 'string';
  const regex = new RegExp(pattern as string);
  return (value) => typeof value === 'string' && regex.test(value);
}
