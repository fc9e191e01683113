/**
 * Every answer the server gives is JSON with a `message`, whatever went wrong: body parsing failures
 * become the contract's 400, unknown paths 404, known paths with another method 405 (with Allow), and
 * anything unexpected a generic 500 whose details go to the log only.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest } from '../contract/validate.js';
import { DuplicateKeyError } from './json-body.js';

/** Messages for the body-parsing errors Fastify raises before a handler runs (path '' = the whole body). */
const BODY_PARSING_ERRORS: Readonly<Record<string, string>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'content-type must be application/json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'must not be empty',
  // Also raised for secure-json-parse's prototype-poisoning check, which Fastify does not tell apart.
  FST_ERR_CTP_INVALID_JSON_BODY: 'must be valid JSON, without __proto__ or constructor.prototype keys',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'length does not match its content-length header',
};

export const NOT_FOUND = Object.freeze({ message: 'Not Found' });
export const METHOD_NOT_ALLOWED = Object.freeze({ message: 'Method Not Allowed' });
export const BODY_TOO_LARGE = Object.freeze({ message: 'Request body too large' });
export const INTERNAL_ERROR = Object.freeze({ message: 'Internal server error' });
export const OVERLOADED = Object.freeze({ message: 'Service unavailable' });

interface ErrorAnswer {
  readonly status: number;
  readonly body: object;
}

const invalidBody = (message: string): ErrorAnswer => ({
  status: 400,
  body: invalidRequest([{ path: '', message }]),
});

function answerFor(error: FastifyError): ErrorAnswer {
  if (error instanceof DuplicateKeyError)
    return {
      status: 400,
      body: invalidRequest([{ path: error.pointer, message: 'is given more than once' }]),
    };
  const bodyMessage = BODY_PARSING_ERRORS[error.code];
  if (bodyMessage !== undefined) return invalidBody(bodyMessage);
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, body: BODY_TOO_LARGE };
  if (error.statusCode === 503) return { status: 503, body: OVERLOADED };
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500)
    return { status, body: { message: STATUS_CODES[status] ?? 'Bad Request' } };
  return { status: 500, body: INTERNAL_ERROR };
}

/**
 * Fastify's `frameworkErrors` option: errors raised while routing, i.e. a path that cannot even be
 * decoded (FST_ERR_BAD_URL). Such a path names no route.
 */
export function answerRoutingError(
  _error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.code(404).send(NOT_FOUND);
}

/** Install before any route is added, so the 405 check knows every path. */
export function installErrorAnswers(app: FastifyInstance): void {
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = methodsByPath.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    methodsByPath.set(route.url, methods);
  });

  const answerUnrouted = (request: FastifyRequest, reply: FastifyReply): void => {
    const queryStart = request.url.indexOf('?');
    const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
    const methods = methodsByPath.get(path);
    if (methods === undefined) {
      reply.code(404).send(NOT_FOUND);
      return;
    }
    reply
      .code(405)
      .header('Allow', [...methods].join(', '))
      .send(METHOD_NOT_ALLOWED);
  };
  // Answered in onRequest, before Fastify reads the body: otherwise a bad or oversized body sent to an
  // unknown path or with the wrong method would be reported as 400 or 413 instead of 404/405.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404) answerUnrouted(request, reply);
    else done();
  });
  app.setNotFoundHandler(answerUnrouted);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const answer = answerFor(error);
    if (answer.status === 500) request.log.error({ err: error }, 'request failed');
    reply.code(answer.status).send(answer.body);
  });
}
