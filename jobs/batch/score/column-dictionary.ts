/**
 * `<name>.columns.csv`: every column of the scored file, in its order, with its type, unit and meaning, so
 * that a reader needs no docs to tell `budget_food_home` from `model_food_home`. The columns are the
 * writer's own header (`scoredHeader`), so none is missing; types are those of Arrow and Parquet output
 * (a CSV file holds them as text), checked against the Arrow writer's schema by
 * test/jobs/batch/score/column-dictionary.test.ts.
 */
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CATEGORIES } from '../../../src/contract/categories.js';
import { CATEGORY_DESCRIPTIONS } from '../../../src/engine/category-kinds.js';
import { csvHeader, csvRecord } from '../io/csv-encoding.js';
import { type OutputLayout, scoredHeader } from './layout.js';

interface ColumnEntry {
  readonly type: string;
  readonly unit: string;
  readonly meaning: string;
}

const ANNUAL_DOLLARS = 'US dollars a year, whole dollars, in the model price year';

const categoryEntries = (): [string, ColumnEntry][] =>
  CATEGORIES.flatMap((category) => {
    const label = CATEGORY_DESCRIPTIONS[category].label;
    return [
      [
        `budget_${category}`,
        {
          type: 'Int32',
          unit: ANNUAL_DOLLARS,
          meaning: `budget for ${label}: the stated amount where the row gives one, else what the model predicts`,
        },
      ],
      [
        `model_${category}`,
        {
          type: 'Int32',
          unit: ANNUAL_DOLLARS,
          meaning: `what the model predicts a household like this spends on ${label}, whatever the row states`,
        },
      ],
    ];
  });

/** The job's own columns other than the budgets and models, by their base names (layout.ts). */
const JOB_COLUMNS: Readonly<Record<string, ColumnEntry>> = {
  predicted_saving_ability: {
    type: 'Int32',
    unit: 'US dollars a month, whole dollars; may be negative',
    meaning: 'take-home pay left after the budget (Predicted Saving Ability)',
  },
  outlay_score: {
    type: 'Float64',
    unit: 'points, 0.0 to 100.0',
    meaning: 'main cash-flow score: outlay_index clamped to 0-100 (80 is break-even)',
  },
  savings_score: {
    type: 'Float64',
    unit: 'points, 0.0 to 100.0',
    meaning: 'the score with the stated savings counted as a fixed expense',
  },
  geo_level: {
    type: 'Utf8',
    unit: '',
    meaning: 'geography the engine priced the row at: zip, zip3, state or national',
  },
  state: { type: 'Utf8', unit: '', meaning: 'two-letter state of the ZIP; empty when unknown' },
  cbsa: { type: 'Utf8', unit: '', meaning: 'metropolitan or micropolitan area (CBSA code); empty when none' },
  outlay_index: {
    type: 'Float64',
    unit: 'points, one decimal; 1 point = 1 % of take-home pay a year',
    meaning: 'the main score unclamped (80 is break-even)',
  },
  savings_index: { type: 'Float64', unit: 'points, one decimal', meaning: 'the savings score unclamped' },
  outlay_percentile: {
    type: 'Float64',
    unit: 'percentile, 0.0 to 100.0',
    meaning: 'where outlay_index sits among US households',
  },
  reason_codes: {
    type: 'Utf8',
    unit: 'codes joined by ;',
    meaning: 'what lowers the main score most, largest first, at most 4 (docs/scores.md)',
  },
  expense_flags: {
    type: 'Utf8',
    unit: 'CODE:category joined by ;',
    meaning: 'stated expenses far below what peers spend (docs/scores.md)',
  },
};

/** An input column: its use (from the request plan) and the type the scored file gives it. */
function inputEntry(layout: OutputLayout, column: number): ColumnEntry {
  const binding = layout.plan.bindings.find((b) => b.column === column);
  if (binding === undefined)
    return {
      type: 'as in the input (Utf8 from CSV)',
      unit: '',
      meaning: 'input column, passed through unused',
    };
  const { field } = binding;
  const type =
    field.kind === 'boolean' ? 'Bool' : field.kind === 'text' ? 'Utf8' : field.integer ? 'Int32' : 'Float64';
  const unit = field.section === 'budget' || field.name.endsWith('income') ? 'US dollars a year' : '';
  return {
    type: `${type} (an Arrow input's own type)`,
    unit,
    meaning: `input column, used as ${field.name}`,
  };
}

/** The dictionary's rows: [column, type, unit, meaning] for every scored column, in the file's order. */
export function columnDictionary(layout: OutputLayout): string[][] {
  const known = new Map<string, ColumnEntry>([...categoryEntries(), ...Object.entries(JOB_COLUMNS)]);
  const explanation = new Map(
    layout.explanationColumns.map((name) => [
      name,
      name.replace(/^(outlay_)+(?=reason_codes|expense_flags|savings_index)/, ''),
    ]),
  );
  return scoredHeader(layout).map((name, i) => {
    if (i === 0)
      return [name, 'Int32', '', "the row's 1-based number in the input (the rejects file's numbering)"];
    if (i <= layout.header.length) {
      const entry = inputEntry(layout, i - 1);
      return [name, entry.type, entry.unit, entry.meaning];
    }
    const entry = known.get(explanation.get(name) ?? name);
    return [name, entry?.type ?? '', entry?.unit ?? '', entry?.meaning ?? 'see docs/batch.md, "Outputs"'];
  });
}

export const columnsFileName = (name: string) => `${name}.columns.csv`;

/** Writes `<name>.columns.csv` in `outDir` (a temporary file renamed: never half written). */
export async function writeColumnDictionary(
  outDir: string,
  name: string,
  layout: OutputLayout,
): Promise<string> {
  const text =
    csvHeader(['column', 'type', 'unit', 'meaning'], layout.csv) +
    columnDictionary(layout)
      .map((row) => csvRecord(row, layout.csv))
      .join('');
  const path = join(outDir, columnsFileName(name));
  const partial = join(outDir, `.${columnsFileName(name)}.partial`);
  await writeFile(partial, text);
  await rename(partial, path);
  return path;
}
