/**
 * The shapes of GET /v1.0/engine and POST /v1.0/households/evaluate, defined once: the routes, the
 * OpenAPI document and the remote client (src/remote) take their types and checks from here.
 */
import {
  BudgetResponse,
  InvalidRequestBody,
  ModelResponse,
  OperationRequest,
  scoreResponseSchema,
} from '../contract/schemas.js';
import Type, { type Static, type TSchema } from '../vendor/typebox.js';
import { SERVICE_PATHS } from './endpoints.js';
import { explainedScoreResponseSchema } from './operations.js';

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

/** The evaluate answer of a server with this score key: with `?explain=true`, scores with `details`. */
export const evaluateAnswerSchema = (scoreKey: string, explained: boolean) =>
  evaluateResponseSchema(
    householdAnswerSchema(explained ? explainedScoreResponseSchema(scoreKey) : scoreResponseSchema(scoreKey)),
  );
