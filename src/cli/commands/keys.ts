/**
 * `outlay keys create|list|revoke`: manage the API keys file. `create` prints the new key on stdout, once;
 * only its SHA-256 hash is stored. The keys file may also be named by OUTLAY_KEYS_FILE.
 */
import type { Argv, CommandModule } from 'yargs';
import { SCOPES, type Scope } from '../../keys/keys-file.js';
import { createKey, type KeySummary, listKeys, revokeKey } from '../../keys/manage-keys.js';

interface KeysArgs {
  keys?: string;
}

const keysFileOption = (yargs: Argv) =>
  yargs.option('keys', {
    type: 'string',
    describe: 'Keys file [env OUTLAY_KEYS_FILE]',
    default: process.env.OUTLAY_KEYS_FILE,
  });

function keysFileOf(args: KeysArgs): string {
  if (args.keys === undefined) throw new Error('--keys FILE (or OUTLAY_KEYS_FILE) is required');
  return args.keys;
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
    keysFileOption(yargs)
      .option('scopes', {
        type: 'string',
        demandOption: true,
        describe: `Comma-separated: ${SCOPES.join(',')}`,
      })
      .option('name', { type: 'string', describe: 'Who or what the key is for' })
      .option('expires', { type: 'string', describe: 'Expiry date or timestamp (ISO 8601)' })
      .option('rate-limit', { type: 'number', describe: "Requests per minute (default: the server's)" }),
  handler: async (args) => {
    const keysFile = keysFileOf(args);
    const { key, record } = await createKey(keysFile, {
      scopes: parseScopes(args.scopes),
      ...(args.name === undefined ? {} : { name: args.name }),
      ...(args.expires === undefined ? {} : { expires: parseExpiry(args.expires) }),
      ...(args['rate-limit'] === undefined ? {} : { rateLimit: parseRateLimit(args['rate-limit']) }),
    });
    process.stdout.write(`${key}\n`);
    process.stderr.write(
      `Created ${record.id} (${record.scopes.join(', ')}) in ${keysFile}. ` +
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
    keysFileOption(yargs).option('json', { type: 'boolean', default: false, describe: 'JSON output' }),
  handler: async (args) => {
    const keys = await listKeys(keysFileOf(args));
    process.stdout.write(args.json ? `${JSON.stringify(keys, null, 2)}\n` : `${table(keys)}\n`);
  },
};

const revokeCommand: CommandModule<KeysArgs, KeysArgs & { id: string }> = {
  command: 'revoke <id>',
  describe: 'Revoke a key by id (running servers stop accepting it within seconds)',
  builder: (yargs) => keysFileOption(yargs).positional('id', { type: 'string', demandOption: true }),
  handler: async (args) => {
    const record = await revokeKey(keysFileOf(args), args.id);
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
