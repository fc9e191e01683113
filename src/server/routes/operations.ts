/**
 * The three POST endpoints. The engine validates the body with the shared validator; this layer adds no
 * logic beyond mapping an invalid request to 400. Fastify's own body validation is deliberately unused
 * (its Ajv setup coerces and strips, which would accept "50000" for a number). The 200 response schema
 * only speeds up serialisation.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { invalidRequest } from '../../contract/validate.js';
import { transformerOf } from '../../engine/transform.js';
import type { Engine, ScoreRunOptions } from '../../engine/types.js';
import { JSON_MEDIA_TYPE } from '../json-body.js';
import { OPERATIONS, type Operation } from '../operations.js';

/** Fastify leaves the body undefined only when a request has neither content-type nor body. */
export const NO_BODY = invalidRequest([
  { path: '', message: 'must be a JSON object sent with content-type application/json' },
]);

/** The operation's answer to a body: plain, or with its query flag (?explain=true, ?ranges=true) flagged. */
function answer(
  engine: Engine,
  operation: Operation,
  options: ScoreRunOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const flag = operation.explained?.flag.name;
  const explained = flag === undefined ? false : flagRequested(request.query, flag);
  if (explained === undefined) {
    reply.code(400).send(badFlag(flag!));
    return;
  }
  const result = (explained ? operation.explained! : operation).run(engine, request.body, options);
  if (!result.ok) reply.code(400).send(result.error);
  // The route's response schema serialises the plain answer only; an explained or aliased one goes as
  // plain JSON (for which Fastify sets no content-type).
  else if (explained || transformerOf(request.body) !== undefined)
    reply.type(JSON_MEDIA_TYPE).serializer(JSON.stringify).send(result.value);
  else reply.send(result.value);
}

const badFlag = (name: string) =>
  invalidRequest([{ path: '', message: `the query parameter ${name} must be "true" or "false"` }]);

/** Whether the query sets the flag `name` (`name=true`); undefined for any value but true or false. */
function flagRequested(query: unknown, name: string): boolean | undefined {
  const value = (query as Record<string, unknown>)[name];
  if (value === undefined || value === 'false') return false;
  return value === 'true' ? true : undefined;
}

export function registerOperationRoutes(
  app: FastifyInstance,
  engine: Engine,
  options: ScoreRunOptions = {},
): void {
  for (const operation of OPERATIONS) {
    const route: RouteShorthandOptions = {
      config: { scope: operation.scope },
      // Used by Fastify for serialisation only (fast-json-stringify), never to validate the request.
      schema: { response: { 200: operation.responseSchema(engine.scoreKey) } },
    };
    app.post(operation.path, route, (request, reply) => {
      if (request.body === undefined) {
        reply.code(400).send(NO_BODY);
        return;
      }
      answer(engine, operation, options, request, reply);
    });
  }
}

export const BAD_EXPLAIN = badFlag('explain');

/** Whether the query asks for an explanation (`explain=true`); undefined for any value but true or false. */
export const explainRequested = (query: unknown): boolean | undefined => flagRequested(query, 'explain');
