/** A request field as the batch job reads it from a column (column-mapping.ts plans them). */
/** The kind of value a request field takes, derived from its schema. */
export type FieldKind = 'number' | 'boolean' | 'text';

export interface ContractField {
  readonly name: string;
  /** JSON Pointer of the field in a request body, as the API reports it in errors. */
  readonly path: string;
  readonly section: 'demographics' | 'budget';
  readonly kind: FieldKind;
  /** A number the contract requires to be whole (`age`, `household_members`): typed output stores Int32. */
  readonly integer: boolean;
  readonly required: boolean;
}
