/**
 * GET /docs: Swagger UI (@fastify/swagger-ui) rendering the OpenAPI document, which @fastify/swagger
 * serves in its static mode (src/server/openapi.ts says why the document is not generated from routes).
 * Every asset is served from this server, so the page works offline and behind strict egress rules, and
 * the Content-Security-Policy (src/server/security.ts) can allow 'self' only. GET /openapi.json serves
 * the same document.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_PATHS } from '../endpoints.js';
import { JSON_MEDIA_TYPE } from '../json-body.js';
import type { OpenApiDocument } from '../openapi.js';

export function registerDocsPage(app: FastifyInstance, document: OpenApiDocument): void {
  app.register(swagger, { mode: 'static', specification: { document: document as never } });
  app.register(swaggerUi, {
    routePrefix: PUBLIC_PATHS.docs,
    theme: { title: 'Outlay API reference' },
    uiConfig: { validatorUrl: null, tryItOutEnabled: true },
  });
  const json = JSON.stringify(document);
  app.get(PUBLIC_PATHS.openApi, { config: { scope: 'public' } }, (_request, reply) => {
    reply.type(JSON_MEDIA_TYPE).send(json);
  });
}
