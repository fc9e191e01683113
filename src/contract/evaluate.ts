/**
 * The shapes of GET /v1.0/engine and POST /v1.0/households/evaluate, and of the explained score answer
 * they carry, defined once: the routes, the OpenAPI document and the remote client (src/remote) take
 * their types and checks from here.
 */

import Type, { type Static, type TSchema } from '../vendor/typebox.js';
import { CATEGORIES } from './categories.js';
import { SERVICE_PATHS } from './endpoints.js';
import {
  BudgetResponse,
  InvalidRequestBody,
  ModelResponse,
  OperationRequest,
  scoreAnswerSchema,
  scoreResponseSchema,
} from './schemas.js';
import { ScoreDetails } from './score-details.js';

/**
 * Households one evaluate request may carry. A request of this many full profiles (every budget category
 * given) is about 2 MB of JSON and keeps the server's event loop for some tens of milliseconds, so that
 * other callers' requests wait no longer than behind a few hundred single ones.
 */
export const MAX_EVALUATE_HOUSEHOLDS = 1000;

/** Largest evaluate request body, bytes: room for MAX_EVALUATE_HOUSEHOLDS full profiles, pretty-printed. */
export const EVALUATE_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * The evaluate endpoint as GET /v1.0/engine announces it: a server that offers it says so, with its limit
 * (an older or another server answers no `evaluate`, or no /v1.0/engine at all).
 */
export const EvaluateOffer = Type.Object(
  {
    path: Type.Literal(SERVICE_PATHS.evaluate, { description: 'Where to POST many households at once.' }),
    max_households: Type.Integer({ minimum: 1, description: 'Most households one request may carry.' }),
  },
  { additionalProperties: false },
);

/**
 * GET /v1.0/engine. Further fields may be added later, so a reader must accept (and ignore) ones it
 * does not know: the check allows them.
 */
export const EngineInfo = Type.Object({
  model_version: Type.String({
    minLength: 1,
    description: 'Version of the model artifact the server answers with (as in `details.model_version`).',
  }),
  price_year: Type.Integer({ description: "The year of the prices every amount is in (the model's)." }),
  score_key: Type.String({ minLength: 1, description: 'The key of the main score in score answers.' }),
  evaluate: Type.Optional(EvaluateOffer),
});
export type EngineInfo = Static<typeof EngineInfo>;

/** The request of POST /v1.0/households/evaluate, with each household checked as `item` says. */
const evaluateRequest = (item: TSchema) =>
  Type.Object(
    {
      households: Type.Array(item, {
        minItems: 1,
        maxItems: MAX_EVALUATE_HOUSEHOLDS,
        description:
          'The households, each the body of the three operations. Each is validated on its own: an invalid ' +
          'one gets its errors in its place in the answer, and the others are answered.',
      }),
    },
    { additionalProperties: false },
  );

/** What the OpenAPI document states: a list of operation requests. */
export const EvaluateRequest = evaluateRequest(OperationRequest);

/**
 * What the route checks before it looks at any household: the list and its bounds. Each household is then
 * validated by the engine, as the three operations validate it, so that one invalid household does not
 * refuse the others.
 */
export const EvaluateEnvelope = evaluateRequest(Type.Unknown());

/**
 * One household's answer: the budget and model answers' fields and the score answer (`score`), as the
 * three operations give them.
 */
export const householdAnswerSchema = (score: TSchema) =>
  Type.Object(
    { budget: BudgetResponse.properties.budget, model: ModelResponse.properties.model, score },
    { additionalProperties: false },
  );

/**
 * The answer of POST /v1.0/households/evaluate: one item per household, in request order, each its answer
 * or, for an invalid household, the 400 body the operations give, its paths from the evaluate request's
 * root (`/households/3/demographics/zip`).
 */
export const evaluateResponseSchema = (householdAnswer: TSchema) =>
  Type.Object(
    { households: Type.Array(Type.Union([householdAnswer, InvalidRequestBody])) },
    { additionalProperties: false },
  );

/** The score response with `?explain=true`: its three values and their `details` (docs/scores.md). */
export function explainedScoreResponseSchema(scoreKey: string): TSchema {
  return Type.Object(
    { ...scoreAnswerSchema(scoreKey).properties, details: ScoreDetails },
    { additionalProperties: false },
  );
}

/** The evaluate answer of a server with this score key: with `?explain=true`, scores with `details`. */
export const evaluateAnswerSchema = (scoreKey: string, explained: boolean) =>
  evaluateResponseSchema(
    householdAnswerSchema(explained ? explainedScoreResponseSchema(scoreKey) : scoreAnswerSchema(scoreKey)),
  );

/**
 * The media type a caller puts in `Accept` for the evaluate answer in rows: each household one JSON array
 * of the values a scored file needs, in the order `columns` lists (`evaluateRowsAnswerSchema`), instead of
 * the operations' objects. A server that does not offer it answers application/json, which the caller
 * tells by the answer's content-type.
 */
export const EVALUATE_ROWS_MEDIA_TYPE = 'application/vnd.outlay.evaluate-rows+json';

/**
 * Reasons or flags as the rows answer's `details.reasons` and `details.flags` carry them, and the batch's
 * explanation columns: `CODE`, or `CODE:category` for a flag on a category, joined by `;`, empty when none.
 */
export const joinedCodes = (items: readonly { code: string; category?: string | null }[]): string =>
  items.map(({ code, category }) => (category == null ? code : `${code}:${category}`)).join(';');

/** A text of `joinedCodes`. */
const codeList = (description: string) =>
  Type.String({ pattern: '^([A-Z_]+(:[a-z_]+)?(;[A-Z_]+(:[a-z_]+)?)*)?$', description });

/** A household's answer as the JSON answer gives it, which the rows answer's values are read from. */
export interface AnsweredHousehold {
  readonly budget: Readonly<Record<string, number>>;
  readonly model: Readonly<Record<string, number>>;
  readonly score: Readonly<Record<string, unknown>>;
}

/** One column of the rows answer: its name, the schema of its values, and where its value comes from. */
export type RowColumn = readonly [
  name: string,
  schema: TSchema,
  read: (answer: AnsweredHousehold) => unknown,
];

type Details = Record<string, unknown> & Pick<ScoreDetails, 'reasons' | 'flags'>;
const detailsOf = (answer: AnsweredHousehold) => answer.score.details as Details;

/**
 * The columns of the rows answer, the single list its schema, the server's rows and the client's reading
 * derive from: the budget's and the model's 38 amounts (`budget.food_home`, `model.food_home`, categories
 * in contract order), the score answer's three texts under their keys, and with `?explain=true` the
 * `details` the batch's explanation columns carry, with the reasons' and flags' codes joined by `;`.
 */
export function rowColumns(scoreKey: string, explained: boolean): RowColumn[] {
  const budget = BudgetResponse.properties.budget.properties;
  const model = ModelResponse.properties.model.properties;
  const score = scoreResponseSchema(scoreKey).properties;
  const detail = (field: 'basis' | 'profile' | 'index' | 'savings_index' | 'percentile'): RowColumn => [
    `details.${field}`,
    ScoreDetails.properties[field],
    (answer) => detailsOf(answer)[field],
  ];
  const codes = (field: 'reasons' | 'flags', description: string): RowColumn => [
    `details.${field}`,
    codeList(description),
    (answer) => joinedCodes(detailsOf(answer)[field]),
  ];
  return [
    ...CATEGORIES.map((c): RowColumn => [`budget.${c}`, budget[c], (answer) => answer.budget[c]]),
    ...CATEGORIES.map((c): RowColumn => [`model.${c}`, model[c], (answer) => answer.model[c]]),
    ...Object.entries(score).map(([key, schema]): RowColumn => [key, schema, (answer) => answer.score[key]]),
    ...(explained
      ? [
          detail('basis'),
          detail('profile'),
          detail('index'),
          detail('savings_index'),
          detail('percentile'),
          codes('reasons', 'The codes of `details.reasons`, joined by `;`.'),
          codes(
            'flags',
            'The flags as `CODE:category` (`CODE` alone when it has no category), joined by `;`.',
          ),
        ]
      : []),
  ];
}

/**
 * An array of exactly these items, in the JSON Schema 2020-12 words OpenAPI 3.1 uses (`prefixItems`;
 * TypeBox's Tuple writes the older `items` list), which TypeBox's checks also read.
 */
const exactly = (items: readonly TSchema[]) =>
  Type.Unsafe<unknown[]>({ type: 'array', prefixItems: items, items: false, minItems: items.length });

/**
 * The evaluate answer in rows (EVALUATE_ROWS_MEDIA_TYPE): `columns` names the values once, and each
 * household is its row of values or, for an invalid one, the same 400 body as in the JSON answer.
 */
export function evaluateRowsAnswerSchema(columns: readonly RowColumn[]) {
  return Type.Object(
    {
      columns: exactly(columns.map(([name]) => Type.Literal(name))),
      households: Type.Array(Type.Union([exactly(columns.map(([, schema]) => schema)), InvalidRequestBody]), {
        description: 'One item per household, in request order.',
      }),
    },
    { additionalProperties: false },
  );
}
