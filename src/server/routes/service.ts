/**
 * GET /v1.0/engine (what the engine is: any valid key) and POST /v1.0/households/evaluate (the three
 * operations over many households: a key with all three scopes). Like the operations, each household is
 * validated by the engine with the shared validator and answered as the operations answer it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CATEGORIES } from '../../contract/categories.js';
import {
  type ErrorItem,
  type InvalidRequestBody,
  PSA_KEY,
  SAVINGS_SCORE_KEY,
  type ScoreResponse,
} from '../../contract/schemas.js';
import { invalidRequest } from '../../contract/validate.js';
import type { ScoreDetails } from '../../engine/score-details.js';
import type { Engine, ScoreRunOptions } from '../../engine/types.js';
import { SCOPES } from '../../keys/keys-file.js';
import { Compile } from '../../vendor/typebox.js';
import { SERVICE_PATHS } from '../endpoints.js';
import {
  type EngineInfo,
  EVALUATE_BODY_LIMIT,
  EVALUATE_ROWS_MEDIA_TYPE,
  EvaluateEnvelope,
  joinedCodes,
  MAX_EVALUATE_HOUSEHOLDS,
  rowColumns,
} from '../service-schemas.js';
import { BAD_EXPLAIN, explainRequested, NO_BODY } from './operations.js';

export function engineInfoOf(engine: Engine): EngineInfo {
  return {
    model_version: engine.modelVersion,
    price_year: engine.priceYear,
    score_key: engine.scoreKey,
    evaluate: { path: SERVICE_PATHS.evaluate, max_households: MAX_EVALUATE_HOUSEHOLDS },
  };
}

const envelope = Compile(EvaluateEnvelope);

interface RawError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly message: string;
}

/** The envelope's problems in the operations' words (docs/api.md, "Validation errors"). */
function envelopeErrors(body: unknown): ErrorItem[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [{ path: '', message: 'must be an object with a `households` list' }];
  return [...(envelope.Errors(body) as Iterable<RawError>)].flatMap(describe);
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function describe(raw: RawError): ErrorItem[] {
  switch (raw.keyword) {
    case 'additionalProperties':
      return (raw.params.additionalProperties as string[]).map((key) => ({
        path: `/${escapePointer(key)}`,
        message: 'is not an allowed field',
      }));
    case 'required':
      return [{ path: '/households', message: 'is required' }];
    case 'minItems':
      return [{ path: '/households', message: 'must list at least one household' }];
    case 'maxItems':
      return [
        {
          path: '/households',
          message: `must have at most ${MAX_EVALUATE_HOUSEHOLDS} households (send the rest in further requests)`,
        },
      ];
    case 'boolean':
      // TypeBox reports each unknown field twice; the additionalProperties case names it.
      return [];
    default:
      return [{ path: raw.instancePath, message: raw.message }];
  }
}

/** The 400 body of household `index`, its paths from the evaluate request's root. */
const rejection = (error: InvalidRequestBody, index: number) =>
  invalidRequest(error.errors.map(({ path, message }) => ({ path: `/households/${index}${path}`, message })));

/** A household's answer (budget, model, score), or its rejection. */
type HouseholdAnswer = { budget: object; model: object; score: ScoreResponse } | InvalidRequestBody;

/** A household's answer, or its rejection; the score as the scores operation gives it with `options`. */
function evaluateOne(
  engine: Engine,
  body: unknown,
  index: number,
  explained: boolean,
  options: ScoreRunOptions,
): HouseholdAnswer {
  const result = engine.household(body);
  if (!result.ok) return rejection(result.error, index);
  const { budget, model, score } = result.value;
  if (!explained && options.profile === undefined) return { budget, model, score };
  const scored = explained ? engine.explainedScore(body, options) : engine.score(body, options);
  return scored.ok ? { budget, model, score: scored.value as ScoreResponse } : rejection(scored.error, index);
}

/** A household's answer as its row of the rows answer (`rowColumns` order), or its rejection as it is. */
function rowOf(answer: HouseholdAnswer, scoreKey: string, explained: boolean): unknown {
  if (!('budget' in answer)) return answer;
  const budget = answer.budget as Record<string, number>;
  const model = answer.model as Record<string, number>;
  const { score } = answer;
  const row: unknown[] = [
    ...CATEGORIES.map((category) => budget[category]),
    ...CATEGORIES.map((category) => model[category]),
    score[PSA_KEY],
    score[scoreKey],
    score[SAVINGS_SCORE_KEY],
  ];
  if (!explained) return row;
  const details = (score as unknown as { details: ScoreDetails }).details;
  row.push(
    details.basis,
    details.profile,
    details.index,
    details.savings_index,
    details.percentile,
    joinedCodes(details.reasons),
    joinedCodes(details.flags),
  );
  return row;
}

/** Whether the caller asks for the answer in rows (`Accept: application/vnd.outlay.evaluate-rows+json`). */
const rowsAccepted = (request: FastifyRequest) =>
  request.headers.accept?.includes(EVALUATE_ROWS_MEDIA_TYPE) === true;

export function registerServiceRoutes(
  app: FastifyInstance,
  engine: Engine,
  options: ScoreRunOptions = {},
): void {
  const info = JSON.stringify(engineInfoOf(engine));
  const columnNames = (explained: boolean) => rowColumns(engine.scoreKey, explained).map(([name]) => name);
  const columns = { plain: columnNames(false), explained: columnNames(true) };
  app.get(SERVICE_PATHS.engine, { config: { scope: 'any-key' } }, (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(info);
  });
  app.post(
    SERVICE_PATHS.evaluate,
    { config: { scope: SCOPES }, bodyLimit: EVALUATE_BODY_LIMIT },
    (request, reply) => {
      const explained = explainRequested(request.query);
      const { body } = request;
      if (explained === undefined) reply.code(400).send(BAD_EXPLAIN);
      else if (body === undefined) reply.code(400).send(NO_BODY);
      else if (!envelope.Check(body)) reply.code(400).send(invalidRequest(envelopeErrors(body)));
      else {
        const households = (body as { households: unknown[] }).households.map((household, index) =>
          evaluateOne(engine, household, index, explained, options),
        );
        // One serialisation of the whole answer: its items are of two shapes.
        reply.serializer(JSON.stringify);
        if (!rowsAccepted(request)) reply.send({ households });
        else
          reply.type(`${EVALUATE_ROWS_MEDIA_TYPE}; charset=utf-8`).send({
            columns: explained ? columns.explained : columns.plain,
            households: households.map((answer) => rowOf(answer, engine.scoreKey, explained)),
          });
      }
    },
  );
}
