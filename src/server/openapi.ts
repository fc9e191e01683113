/**
 * The OpenAPI 3.1 document, generated from the shared TypeBox schemas (src/contract/schemas.ts) and the
 * operations table, so that it cannot drift from what the engine validates and returns. OpenAPI 3.1 uses
 * JSON Schema 2020-12, which TypeBox schemas already are; named schemas become components and are
 * referenced wherever they appear inside another schema.
 */

import {
  Demographics,
  ErrorItem,
  ErrorMessage,
  GivenBudget,
  InvalidRequestBody,
  OperationRequest,
} from '../contract/schemas.js';
import type { TSchema } from '../vendor/typebox.js';
import { OPERATIONS } from './operations.js';
import { HealthStatus, ReadinessStatus } from './public-schemas.js';

export type OpenApiDocument = Record<string, unknown>;

const API_VERSION = '1.0';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });

/** Plain JSON of a schema (TypeBox's own markers are non-enumerable), with named sub-schemas as $ref. */
function toJsonSchema(schema: unknown, names: ReadonlyMap<unknown, string>, root: unknown): unknown {
  if (schema !== root && names.has(schema)) return ref(names.get(schema)!);
  if (Array.isArray(schema)) return schema.map((item) => toJsonSchema(item, names, root));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, toJsonSchema(value, names, root)]),
  );
}

function componentSchemas(scoreKey: string): Record<string, unknown> {
  const named: [string, TSchema][] = [
    ['Demographics', Demographics],
    ['GivenBudget', GivenBudget],
    ['OperationRequest', OperationRequest],
    ...OPERATIONS.map((operation): [string, TSchema] => [
      operation.responseName,
      operation.responseSchema(scoreKey),
    ]),
    ['ErrorItem', ErrorItem],
    ['InvalidRequestBody', InvalidRequestBody],
    ['ErrorMessage', ErrorMessage],
    ['HealthStatus', HealthStatus],
    ['ReadinessStatus', ReadinessStatus],
  ];
  const names = new Map<unknown, string>(named.map(([name, schema]) => [schema, name]));
  return Object.fromEntries(named.map(([name, schema]) => [name, toJsonSchema(schema, names, schema)]));
}

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMIT_HEADERS = {
  RateLimit: headerRef('RateLimit'),
  'RateLimit-Policy': headerRef('RateLimit-Policy'),
};

const components = (scoreKey: string) => ({
  schemas: componentSchemas(scoreKey),
  securitySchemes: {
    apiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description:
        'An Outlay API key (`outlay_<22 base62>_<6 base62 checksum>`), scoped per service: budgets, scores, models.',
    },
  },
  headers: {
    RateLimit: {
      description:
        'Remaining requests in the current window and seconds until it resets (IETF RateLimit header).',
      schema: { type: 'string', examples: ['"per-key";r=599;t=60'] },
    },
    'RateLimit-Policy': {
      description: "The key's quota per window (IETF RateLimit-Policy header).",
      schema: { type: 'string', examples: ['"per-key";q=600;w=60'] },
    },
    'Retry-After': {
      description: 'Seconds to wait before retrying.',
      schema: { type: 'integer', minimum: 1 },
    },
  },
  responses: {
    InvalidRequestBody: {
      description:
        'The key was accepted but the body failed validation: every problem with its JSON Pointer path. ' +
        'Also for malformed JSON and a missing or non-JSON content type (path "").',
      content: json(ref('InvalidRequestBody')),
    },
    Forbidden: {
      description:
        'Missing, malformed, unknown, revoked or expired key, or a key without this service in its scopes.',
      content: json(ref('ErrorMessage')),
    },
    PayloadTooLarge: {
      description: 'Body larger than the limit (16 KiB by default).',
      content: json(ref('ErrorMessage')),
    },
    TooManyRequests: {
      description: "Over the key's rate limit.",
      headers: { 'Retry-After': headerRef('Retry-After'), ...RATE_LIMIT_HEADERS },
      content: json(ref('ErrorMessage')),
    },
    InternalError: {
      description: 'Unexpected failure; details are in the server log only.',
      content: json(ref('ErrorMessage')),
    },
    Overloaded: {
      description: 'The server is saturated and sheds load instead of queueing.',
      headers: { 'Retry-After': headerRef('Retry-After') },
      content: json(ref('ErrorMessage')),
    },
  },
});

const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

function operationPaths(): Record<string, unknown> {
  return Object.fromEntries(
    OPERATIONS.map((operation) => [
      operation.path,
      {
        post: {
          operationId: operation.operationId,
          summary: operation.summary,
          description: `Requires a key with the \`${operation.scope}\` scope.`,
          tags: ['Operations'],
          security: [{ apiKey: [] }],
          requestBody: { required: true, content: json(ref('OperationRequest')) },
          responses: {
            200: {
              description: 'Success.',
              headers: RATE_LIMIT_HEADERS,
              content: json(ref(operation.responseName)),
            },
            400: responseRef('InvalidRequestBody'),
            403: responseRef('Forbidden'),
            413: responseRef('PayloadTooLarge'),
            429: responseRef('TooManyRequests'),
            500: responseRef('InternalError'),
            503: responseRef('Overloaded'),
          },
        },
      },
    ]),
  );
}

const publicGet = (operationId: string, summary: string, responses: Record<string, unknown>) => ({
  get: {
    operationId,
    summary,
    description: 'Public: no key required.',
    tags: ['Operations support'],
    security: [],
    responses,
  },
});

const publicPaths = () => ({
  '/healthz': publicGet('health', 'Liveness: the process answers.', {
    200: { description: 'Alive.', content: json(ref('HealthStatus')) },
  }),
  '/readyz': publicGet(
    'readiness',
    'Readiness: the model and the keys are loaded and the server is not shutting down.',
    {
      200: { description: 'Ready.', content: json(ref('ReadinessStatus')) },
      503: responseRef('Overloaded'),
    },
  ),
  '/metrics': publicGet('metrics', 'Prometheus metrics: requests by route and status, latency histogram.', {
    200: {
      description: 'Prometheus text exposition format 0.0.4.',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
  }),
  '/openapi.json': publicGet('openapi', 'This document.', {
    200: { description: 'OpenAPI 3.1 document.', content: json({ type: 'object' }) },
  }),
  '/docs': publicGet('docs', 'API reference page rendered from this document (all assets served locally).', {
    200: { description: 'HTML page.', content: { 'text/html': { schema: { type: 'string' } } } },
  }),
});

export function buildOpenApiDocument(options: { scoreKey: string; modelVersion: string }): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Outlay API',
      version: API_VERSION,
      description:
        'Household budgets, behavioral spending models and cash-flow scores. Every response is JSON with a ' +
        '`message` on errors. Unknown paths answer 404 and known paths called with another method answer 405 ' +
        `with an Allow header. Model version: ${options.modelVersion}.`,
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'Operations', description: 'The three service operations; each needs a key with its scope.' },
      { name: 'Operations support', description: 'Health, readiness, metrics and documentation; public.' },
    ],
    paths: { ...operationPaths(), ...publicPaths() },
    components: components(options.scoreKey),
  };
}
