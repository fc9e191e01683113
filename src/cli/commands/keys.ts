/**
 * `outlay keys create|list|revoke`: manage the API keys, in a keys file (--keys, or OUTLAY_KEYS_FILE) or in
 * Redis (--redis-url, or OUTLAY_REDIS_URL). `create` prints the new key on stdout, once; only its SHA-256
 * hash is stored. Every change is atomic against other `outlay keys` runs and is audited (docs/keys.md).
 */
import type { Argv, CommandModule } from 'yargs';
import type { KeyStoreWriter } from '../../keys/key-store-writer.js';
import { SCOPES, type Scope } from '../../keys/keys-file.js';
import {
  type ChangeContext,
  createKey,
  type KeySummary,
  listKeys,
  revokeKey,
} from '../../keys/manage-keys.js';
import { type KeyStoreLocation, openKeyStoreWriter } from '../../keys/open-key-store.js';

interface KeysArgs {
  keys?: string;
  'redis-url'?: string;
  actor?: string;
}

const storeOptions = (yargs: Argv) =>
  yargs
    .option('keys', {
      type: 'string',
      describe: 'Keys file [env OUTLAY_KEYS_FILE]',
      default: process.env.OUTLAY_KEYS_FILE,
    })
    .option('redis-url', {
      type: 'string',
      describe: 'Redis key store shared by several servers, instead of a keys file [env OUTLAY_REDIS_URL]',
      default: process.env.OUTLAY_REDIS_URL,
    })
    .option('actor', {
      type: 'string',
      describe: 'Who is making the change, for the audit log (default: your user name)',
    });

/** An empty value (e.g. OUTLAY_KEYS_FILE=) counts as not given. */
const given = (value: string | undefined): value is string => value !== undefined && value !== '';

function locationOf(args: KeysArgs): KeyStoreLocation {
  const path = args.keys;
  const redisUrl = args['redis-url'];
  if (given(path) && given(redisUrl))
    throw new Error(
      '--keys and --redis-url name two key stores; give one (check OUTLAY_KEYS_FILE/OUTLAY_REDIS_URL)',
    );
  if (given(path)) return { path };
  if (given(redisUrl)) return { redisUrl };
  throw new Error('--keys FILE or --redis-url URL (or OUTLAY_KEYS_FILE / OUTLAY_REDIS_URL) is required');
}

function contextOf(args: KeysArgs): ChangeContext {
  if (args.actor === undefined) return {};
  if (args.actor.trim() === '') throw new Error('--actor must not be empty');
  return { actor: args.actor };
}

/** Opens the store the arguments name for one command, and closes it after. */
async function withStore<T>(args: KeysArgs, use: (store: KeyStoreWriter) => Promise<T>): Promise<T> {
  const store = await openKeyStoreWriter(locationOf(args));
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

function parseScopes(value: string): Scope[] {
  const scopes = value.split(',').map((scope) => scope.trim());
  for (const scope of scopes) {
    if (!(SCOPES as readonly string[]).includes(scope)) {
      throw new Error(`--scopes: unknown scope '${scope}' (choose from ${SCOPES.join(', ')})`);
    }
  }
  return scopes as Scope[];
}

function parseExpiry(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`--expires: '${value}' is not a date (e.g. 2027-01-31)`);
  if (date.getTime() <= Date.now()) throw new Error(`--expires: ${date.toISOString()} is not in the future`);
  return date;
}

function parseRateLimit(value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`--rate-limit must be a positive integer, got '${value}'`);
  return value;
}

const createCommand: CommandModule<
  KeysArgs,
  KeysArgs & { scopes: string; name?: string; expires?: string; 'rate-limit'?: number }
> = {
  command: 'create',
  describe: 'Create a key and print it (once)',
  builder: (yargs) =>
    storeOptions(yargs)
      .option('scopes', {
        type: 'string',
        demandOption: true,
        describe: `Comma-separated: ${SCOPES.join(',')}`,
      })
      .option('name', { type: 'string', describe: 'Who or what the key is for' })
      .option('expires', { type: 'string', describe: 'Expiry date or timestamp (ISO 8601)' })
      .option('rate-limit', { type: 'number', describe: "Requests per minute (default: the server's)" }),
  handler: async (args) => {
    const options = {
      ...contextOf(args),
      scopes: parseScopes(args.scopes),
      ...(args.name === undefined ? {} : { name: args.name }),
      ...(args.expires === undefined ? {} : { expires: parseExpiry(args.expires) }),
      ...(args['rate-limit'] === undefined ? {} : { rateLimit: parseRateLimit(args['rate-limit']) }),
    };
    const { key, record, where } = await withStore(args, async (store) => ({
      ...(await createKey(store, options)),
      where: store.description,
    }));
    process.stdout.write(`${key}\n`);
    process.stderr.write(
      `Created ${record.id} (${record.scopes.join(', ')}) in ${where}. ` +
        'Store the key now: only its hash is kept, it cannot be shown again.\n',
    );
  },
};

const COLUMNS: [string, (key: KeySummary) => string][] = [
  ['ID', (key) => key.id],
  ['NAME', (key) => key.name],
  ['SCOPES', (key) => key.scopes.join(',')],
  ['RATE_LIMIT', (key) => (key.rateLimit === null ? 'default' : String(key.rateLimit))],
  ['CREATED', (key) => key.created],
  ['EXPIRES', (key) => key.expires ?? '-'],
  ['REVOKED', (key) => key.revoked ?? '-'],
];

function table(keys: KeySummary[]): string {
  const rows = [COLUMNS.map(([title]) => title), ...keys.map((key) => COLUMNS.map(([, cell]) => cell(key)))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const listCommand: CommandModule<KeysArgs, KeysArgs & { json: boolean }> = {
  command: 'list',
  describe: 'List keys (never the keys themselves)',
  builder: (yargs) =>
    storeOptions(yargs).option('json', { type: 'boolean', default: false, describe: 'JSON output' }),
  handler: async (args) => {
    const context = contextOf(args);
    const keys = await withStore(args, (store) => listKeys(store, context));
    process.stdout.write(args.json ? `${JSON.stringify(keys, null, 2)}\n` : `${table(keys)}\n`);
  },
};

const revokeCommand: CommandModule<KeysArgs, KeysArgs & { id: string }> = {
  command: 'revoke <id>',
  describe: 'Revoke a key by id (running servers stop accepting it within seconds)',
  builder: (yargs) => storeOptions(yargs).positional('id', { type: 'string', demandOption: true }),
  handler: async (args) => {
    const context = contextOf(args);
    const record = await withStore(args, (store) => revokeKey(store, args.id, context));
    process.stdout.write(`Revoked ${record.id} at ${record.revoked}\n`);
  },
};

export const keysCommand: CommandModule = {
  command: 'keys <command>',
  describe: 'Manage API keys: create, list, revoke',
  builder: (yargs) =>
    yargs
      .command(createCommand as CommandModule)
      .command(listCommand as CommandModule)
      .command(revokeCommand as CommandModule)
      .demandCommand(1),
  handler: () => {},
};
