/** Liveness on the API listener: public, so that a load balancer can check the port it sends traffic to. */
import type { FastifyInstance } from 'fastify';
import { PUBLIC_PATHS } from '../../contract/endpoints.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/under-pressure's per-route override; returning nothing lets the request through. */
    pressureHandler?: () => undefined;
  }
}

export const HEALTHY = Object.freeze({ status: 'ok' });

export function registerPublicRoutes(app: FastifyInstance): void {
  // Liveness must answer even when load is being shed, or an orchestrator would restart a busy server.
  app.get(
    PUBLIC_PATHS.health,
    { config: { scope: 'public', pressureHandler: () => undefined } },
    (_request, reply) => {
      reply.send(HEALTHY);
    },
  );
}
