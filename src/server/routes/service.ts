/**
 * GET /v1.0/engine (what the engine is: any valid key) and POST /v1.0/households/evaluate (the three
 * operations over many households: a key with all three scopes). Like the operations, each household is
 * validated by the engine with the shared validator and answered as the operations answer it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorItem, InvalidRequestBody } from '../../contract/schemas.js';
import { invalidRequest } from '../../contract/validate.js';
import type { Engine, ScoreRunOptions } from '../../engine/types.js';
import { SCOPES } from '../../keys/keys-file.js';
import { Compile } from '../../vendor/typebox.js';
import { SERVICE_PATHS } from '../endpoints.js';
import { JSON_MEDIA_TYPE } from '../json-body.js';
import {
  type AnsweredHousehold,
  type EngineInfo,
  EVALUATE_BODY_LIMIT,
  EVALUATE_ROWS_MEDIA_TYPE,
  EvaluateEnvelope,
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
type HouseholdAnswer = AnsweredHousehold | InvalidRequestBody;

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
  return scored.ok ? { budget, model, score: scored.value } : rejection(scored.error, index);
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
  const rows = (explained: boolean) => {
    const columns = rowColumns(engine.scoreKey, explained);
    return { names: columns.map(([name]) => name), values: columns.map(([, , read]) => read) };
  };
  const forms = { plain: rows(false), explained: rows(true) };
  app.get(SERVICE_PATHS.engine, { config: { scope: 'any-key' } }, (_request, reply) => {
    reply.type(JSON_MEDIA_TYPE).send(info);
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
        if (!rowsAccepted(request)) reply.type(JSON_MEDIA_TYPE).send({ households });
        else {
          const { names, values } = explained ? forms.explained : forms.plain;
          reply.type(`${EVALUATE_ROWS_MEDIA_TYPE}; charset=utf-8`).send({
            columns: names,
            households: households.map((answer) =>
              'budget' in answer ? values.map((read) => read(answer)) : answer,
            ),
          });
        }
      }
    },
  );
}
