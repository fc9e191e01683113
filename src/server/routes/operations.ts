/**
 * The three POST endpoints. The engine validates the body with the shared validator; this layer adds no
 * logic beyond mapping an invalid request to 400. Fastify's own body validation is deliberately unused
 * (its Ajv setup coerces and strips, which would accept "50000" for a number). The 200 response schema
 * only speeds up serialisation.
 */
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { invalidRequest } from '../../contract/validate.js';
import type { Engine } from '../../engine/types.js';
import { OPERATIONS } from '../operations.js';

/** Fastify leaves the body undefined only when a request has neither content-type nor body. */
const NO_BODY = invalidRequest([
  { path: '', message: 'must be a JSON object sent with content-type application/json' },
]);

export function registerOperationRoutes(app: FastifyInstance, engine: Engine): void {
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
      const result = operation.run(engine, request.body);
      if (result.ok) reply.send(result.value);
      else reply.code(400).send(result.error);
    });
  }
}
