/**
 * CSV field and record encoding with csv-stringify's default rules (quote a field only when it contains a
 * comma, a double quote, CR or LF; double embedded quotes; LF record delimiter). Written by hand because
 * the batch job encodes ~90 fields per row and csv-stringify's per-field option handling dominated the
 * run time; test/jobs/batch/io/csv-encoding.test.ts checks byte equality with csv-stringify on generated fields.
 */
const NEEDS_QUOTES = /[",\r\n]/;
const QUOTE = /"/g;

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(QUOTE, '""')}"` : value;
}

/** One record, LF-terminated. */
export function csvRecord(fields: readonly string[]): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) {
    if (i > 0) line += ',';
    line += csvField(fields[i] ?? '');
  }
  return `${line}\n`;
}
