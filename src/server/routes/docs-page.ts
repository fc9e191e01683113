/**
 * GET /docs: Swagger UI rendering /openapi.json, with every asset served from this server (swagger-ui-dist
 * ships them), so the page works offline and behind strict egress rules. Swagger UI's online validator
 * badge is disabled for the same reason.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const ASSET_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outlay API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT_SCRIPT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', validatorUrl: null });\n`;

const ASSETS = [
  { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
] as const;

const CACHE_A_DAY = 'public, max-age=86400';

export function registerDocsPage(app: FastifyInstance): void {
  app.get('/docs', { config: { scope: 'public' } }, (_request, reply) => {
    reply.type('text/html; charset=utf-8').send(PAGE);
  });
  app.get('/docs/init.js', { config: { scope: 'public' } }, (_request, reply) => {
    reply.type('text/javascript; charset=utf-8').send(INIT_SCRIPT);
  });
  for (const asset of ASSETS) {
    let contents: Promise<Buffer> | undefined;
    app.get(`/docs/${asset.file}`, { config: { scope: 'public' } }, async (_request, reply) => {
      // Read on first use: most servers never serve the docs, and the bundle is 1.7 MB.
      contents ??= readFile(join(ASSET_DIR, asset.file));
      return reply
        .type(asset.type)
        .header('cache-control', CACHE_A_DAY)
        .send(await contents);
    });
  }
}
