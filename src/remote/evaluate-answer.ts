/**
 * Reads the answers of POST /v1.0/households/evaluate?explain=true into each household's outcome, checked
 * against their schemas (src/contract/evaluate.ts): the JSON answer of the operations' objects, or
 * the answer in rows a server gives when it offers EVALUATE_ROWS_MEDIA_TYPE (told by its content-type).
 * The rows carry only what a scored file needs, so the server writes, and this reads, about a fifth of
 * the bytes, and no explanation texts.
 */
import { CATEGORIES, type Category } from '../contract/categories.js';
import { SERVICE_PATHS } from '../contract/endpoints.js';
import {
  EVALUATE_ROWS_MEDIA_TYPE,
  evaluateAnswerSchema,
  evaluateRowsAnswerSchema,
  joinedCodes,
  rowColumns,
} from '../contract/evaluate.js';
import { type ErrorItem, PSA_KEY, SAVINGS_SCORE_KEY, type ScoreResponse } from '../contract/schemas.js';
import type { ScoreDetails } from '../contract/score-details.js';
import { amountsOf } from './amounts-answer.js';
import { boundedOutcome } from './answer-bounds.js';
import { CheckedAnswer, OffContractAnswer, offContractRejection } from './checked-answer.js';
import type { RemoteHousehold, RemoteOutcome, RemoteRejection } from './outcome.js';

export type {
  RemoteExplanation,
  RemoteHousehold,
  RemoteLending,
  RemoteOutcome,
  RemoteRejection,
} from './outcome.js';

/** The values of an explained score answer (checked against its schema already). */
export function explainedValues(score: ScoreResponse, scoreKey: string) {
  const { details } = score as unknown as { details: ScoreDetails };
  return {
    scoreValues: Float64Array.of(
      Number(score[PSA_KEY]),
      Number(score[scoreKey]),
      Number(score[SAVINGS_SCORE_KEY]),
    ),
    explanation: {
      basis: details.basis,
      profile: details.profile,
      index: details.index,
      savings_index: details.savings_index,
      percentile: details.percentile,
      reasons: joinedCodes(details.reasons),
      flags: joinedCodes(details.flags),
      ...(details.lending === undefined
        ? {}
        : {
            lending: {
              surplus: details.lending.surplus,
              index: details.lending.index,
              score: details.lending.score,
              reasons: joinedCodes(details.lending.reasons),
            },
          }),
    },
  };
}

/** The errors of household `index`, with the paths the operations themselves would name. */
function rejected(item: { errors: readonly ErrorItem[] }, index: number): RemoteRejection {
  const prefix = `/households/${index}`;
  const errors = item.errors.map(({ path, message }) => ({
    path: path.startsWith(prefix) ? path.slice(prefix.length) : path,
    message,
  }));
  return { ok: false, errors };
}

const isRejection = (item: unknown): item is { errors: ErrorItem[] } =>
  Object.hasOwn(item as object, 'errors');

/** Reads a checked row of the rows answer by its columns' names, as a household's answer. */
function rowReader(names: readonly string[], scoreKey: string) {
  const at = (name: string) => names.indexOf(name);
  const budget = at(`budget.${CATEGORIES[0]}`);
  const model = at(`model.${CATEGORIES[0]}`);
  const scores = [PSA_KEY, scoreKey, SAVINGS_SCORE_KEY].map(at);
  const [basis, profile, index, savingsIndex, percentile, reasons, flags] = [
    'basis',
    'profile',
    'index',
    'savings_index',
    'percentile',
    'reasons',
    'flags',
  ].map((field) => at(`details.${field}`)) as number[];
  return (row: readonly unknown[]): RemoteHousehold => {
    const values = row as readonly (number & string)[];
    return {
      budget: Float64Array.from(values.slice(budget, budget + CATEGORIES.length)),
      model: Float64Array.from(values.slice(model, model + CATEGORIES.length)),
      scoreValues: Float64Array.from(scores, (column) => Number(values[column])),
      explanation: {
        basis: values[basis!]!,
        profile: values[profile!]!,
        index: values[index!]!,
        savings_index: values[savingsIndex!]!,
        percentile: values[percentile!]!,
        reasons: values[reasons!]!,
        flags: values[flags!]!,
      },
    };
  };
}

/** Whether an answer of this content-type is the evaluate answer in rows. */
export const inRows = (contentType: string | undefined) =>
  contentType?.startsWith(EVALUATE_ROWS_MEDIA_TYPE) === true;

/** Reads both forms of the explained evaluate answer of a server with this score key. */
export class EvaluateAnswer {
  private readonly json: CheckedAnswer<ReturnType<typeof evaluateAnswerSchema>>;
  private readonly rows: CheckedAnswer<ReturnType<typeof evaluateRowsAnswerSchema>>;
  private readonly rowHousehold: (row: readonly unknown[]) => RemoteHousehold;

  constructor(private readonly scoreKey: string) {
    this.json = new CheckedAnswer(evaluateAnswerSchema(scoreKey, true), undefined, 'households');
    const columns = rowColumns(scoreKey, true);
    const names = columns.map(([name]) => name);
    // A value's problem names its column, `/households/7/budget.food_home`, not its index in the row.
    const columnNamed = (path: string) =>
      path.replace(/^(\/households\/\d+\/)(\d+)$/, (whole, row: string, column: string) =>
        names[Number(column)] === undefined ? whole : `${row}${names[Number(column)]}`,
      );
    this.rows = new CheckedAnswer(evaluateRowsAnswerSchema(columns), columnNamed, 'households');
    this.rowHousehold = rowReader(names, scoreKey);
  }

  /**
   * The outcomes of `count` households; undefined when the body is not JSON, OffContractAnswer when its
   * schema refuses it or it answers another number of households.
   */
  read(body: Buffer, contentType: string | undefined, count: number) {
    const rows = inRows(contentType);
    const checked = rows ? this.rows.read(body) : this.json.read(body);
    if (checked === undefined) return checked;
    // Problems inside some households only: those rows are rejected, the others read.
    const bad = checked instanceof OffContractAnswer ? checked.items : undefined;
    if (checked instanceof OffContractAnswer && bad === undefined) return checked;
    const answer = checked instanceof OffContractAnswer ? checked.answer : checked;
    const { households } = answer as { households: readonly unknown[] };
    if (households.length !== count)
      return new OffContractAnswer([`/households has ${households.length} answers for ${count} households`]);
    return households.map((item, index): RemoteOutcome => {
      const problems = bad?.get(index);
      if (problems !== undefined) return offContractRejection(SERVICE_PATHS.evaluate, problems);
      if (isRejection(item)) return rejected(item, index);
      return this.bounded(rows ? this.rowHousehold(item as unknown[]) : this.jsonHousehold(item), index);
    });
  }

  private jsonHousehold(item: unknown): RemoteHousehold {
    const { budget, model, score } = item as {
      budget: Record<Category, number>;
      model: Record<Category, number>;
      score: ScoreResponse;
    };
    return { budget: amountsOf(budget), model: amountsOf(model), ...explainedValues(score, this.scoreKey) };
  }

  private bounded(value: RemoteHousehold, index: number): RemoteOutcome {
    return boundedOutcome(value, SERVICE_PATHS.evaluate, `/households/${index}/`);
  }
}
