/**
 * The throughput ceiling of Outlay's own stack: the server `outlay serve` builds (`buildServer` with the
 * default config, its pino logger writing one access line per request, metrics, load shedding, error
 * answers, the engine and keys loaded), plus one public route that answers a constant 38-key budget with no
 * authentication, validation or engine work. The same process serves the real endpoints, so the
 * difference between its routes is exactly what the endpoints' work costs; the bare-Fastify ceiling
 * (ceiling-server.ts) shows what the plumbing itself costs.
 *
 * Usage: node dist/bench/stack/outlay-ceiling-server.js <port> <keys file> <requests per minute per key>
 */
import { openKeyStore } from '../../src/keys/open-key-store.js';
import { loadEngine } from '../../src/runtime/load-engine.js';
import { buildServer } from '../../src/server/build-server.js';
import { DEFAULT_SERVER_CONFIG } from '../../src/server/config.js';
import { createLogger } from '../../src/server/logger.js';
import { CONSTANT_BUDGET, CONSTANT_ROUTE } from './constant-budget.js';

const [port, rateLimit] = [Number(process.argv[2]), Number(process.argv[4])];
const keysFile = process.argv[3];
// A missing limit would be NaN, which the limiter reads as no request allowed: every endpoint answer a 429.
if (!Number.isInteger(port) || keysFile === undefined || !(Number.isInteger(rateLimit) && rateLimit > 0)) {
  throw new Error(
    'usage: node dist/bench/stack/outlay-ceiling-server.js <port> <keys file> <requests per minute per key>',
  );
}
const logger = createLogger();
const engine = await loadEngine();
const keyStore = await openKeyStore({ path: keysFile, logger });
const app = buildServer({ config: { ...DEFAULT_SERVER_CONFIG, rateLimit }, engine, keyStore, logger });
app.post(CONSTANT_ROUTE, { config: { scope: 'public' } }, async () => CONSTANT_BUDGET);
await app.listen({ port, host: '127.0.0.1' });

// A clean exit lets a run under --cpu-prof write its profile.
process.once('SIGTERM', () => {
  void app.close().then(() => {
    keyStore.close();
    process.exit(0);
  });
});
