/**
 * The throughput ceiling of the bare framework: Fastify, as the API uses it, answering the budgets route with a
 * constant 38-key budget after parsing the JSON body, with no authentication, validation, engine or logging.
 *
 * Usage: node dist/bench/stack/ceiling-server.js <port>
 */
import Fastify from 'fastify';
import { CONSTANT_BUDGET } from './constant-budget.js';

const port = Number(process.argv[2]);
const app = Fastify({ logger: false });
app.post('/v1.0/budgets/generate', async () => CONSTANT_BUDGET);
await app.listen({ port, host: '127.0.0.1' });

// A clean exit lets a run under --cpu-prof write its profile.
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
