/**
 * GET /v1.0/engine (what the engine is: any valid key) and POST /v1.0/households/evaluate (the three
 * operations over many households: a key with all three scopes). Like the operations, each household is
 * validated by the engine with the shared validator and answered as the operations answer it.
 */
import { setImmediate } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pLimit, { type LimitFunction } from 'p-limit';
import { SERVICE_PATHS } from '../../contract/endpoints.js';
import {
  type AnsweredHousehold,
  type EngineInfo,
  EVALUATE_BODY_LIMIT,
  EVALUATE_ROWS_MEDIA_TYPE,
  EvaluateEnvelope,
  MAX_EVALUATE_HOUSEHOLDS,
  type RowColumn,
  rowColumns,
} from '../../contract/evaluate.js';
import type { ErrorItem, InvalidRequestBody } from '../../contract/schemas.js';
import { invalidRequest } from '../../contract/validate.js';
import type { Engine, ScoreRunOptions } from '../../engine/types.js';
import { SCOPES } from '../../keys/keys-file.js';
import { Compile } from '../../vendor/typebox.js';
import { JSON_MEDIA_TYPE } from '../json-body.js';
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

/**
 * Longest stretch of households evaluated before the event loop is let go: a worst-case request of
 * MAX_EVALUATE_HOUSEHOLDS takes seconds, during which other callers' requests would wait (and load
 * shedding would answer them 503); in slices, they are answered between two.
 */
const SLICE_MS = 10;

async function evaluateInSlices(
  engine: Engine,
  households: readonly unknown[],
  explained: boolean,
  options: ScoreRunOptions,
): Promise<HouseholdAnswer[]> {
  const answers: HouseholdAnswer[] = [];
  let sliceStart = performance.now();
  for (const [index, household] of households.entries()) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      await setImmediate();
      sliceStart = performance.now();
    }
    answers.push(evaluateOne(engine, household, index, explained, options));
  }
  return answers;
}

/** The request's households once its query and envelope are valid; otherwise answers 400. */
function checkedHouseholds(request: FastifyRequest, reply: FastifyReply): readonly unknown[] | undefined {
  const explained = explainRequested(request.query);
  const { body } = request;
  if (explained === undefined) reply.code(400).send(BAD_EXPLAIN);
  else if (body === undefined) reply.code(400).send(NO_BODY);
  else if (!envelope.Check(body)) reply.code(400).send(invalidRequest(envelopeErrors(body)));
  else return (body as { households: unknown[] }).households;
  return undefined;
}

type RowForms = Record<'plain' | 'explained', { names: string[]; values: RowColumn[2][] }>;

function rowForms(scoreKey: string): RowForms {
  const rows = (explained: boolean) => {
    const columns = rowColumns(scoreKey, explained);
    return { names: columns.map(([name]) => name), values: columns.map(([, , read]) => read) };
  };
  return { plain: rows(false), explained: rows(true) };
}

function sendAnswers(reply: FastifyReply, answers: HouseholdAnswer[], forms: RowForms, explained: boolean) {
  // One serialisation of the whole answer: its items are of two shapes.
  reply.serializer(JSON.stringify);
  if (!rowsAccepted(reply.request)) return reply.type(JSON_MEDIA_TYPE).send({ households: answers });
  const { names, values } = explained ? forms.explained : forms.plain;
  return reply.type(`${EVALUATE_ROWS_MEDIA_TYPE}; charset=utf-8`).send({
    columns: names,
    households: answers.map((answer) => ('budget' in answer ? values.map((read) => read(answer)) : answer)),
  });
}

export interface ServiceRouteOptions extends ScoreRunOptions {
  /** Evaluate requests of one key processed at once; its further ones wait their turn. */
  readonly evaluatesPerKey: number;
}

export function registerServiceRoutes(
  app: FastifyInstance,
  engine: Engine,
  options: ServiceRouteOptions,
): void {
  const info = JSON.stringify(engineInfoOf(engine));
  const forms = rowForms(engine.scoreKey);
  const { evaluatesPerKey, ...scoring } = options;
  // One queue per key id; keys are few (a keys file), so queues are kept rather than cleaned up.
  const queues = new Map<string, LimitFunction>();
  const queueOf = (keyId: string) =>
    queues.get(keyId) ?? queues.set(keyId, pLimit(evaluatesPerKey)).get(keyId)!;
  app.get(SERVICE_PATHS.engine, { config: { scope: 'any-key' } }, (_request, reply) => {
    reply.type(JSON_MEDIA_TYPE).send(info);
  });
  app.post(
    SERVICE_PATHS.evaluate,
    { config: { scope: SCOPES }, bodyLimit: EVALUATE_BODY_LIMIT },
    async (request, reply) => {
      const households = checkedHouseholds(request, reply);
      // The key check counted the request as one household; each further one counts too.
      if (households === undefined || !(await reply.chargeRateLimit(households.length - 1))) return reply;
      const explained = explainRequested(request.query) === true;
      const answers = await queueOf(request.keyId!)(() =>
        evaluateInSlices(engine, households, explained, scoring),
      );
      return sendAnswers(reply, answers, forms, explained);
    },
  );
}
