/**
 * The operations behind `outlay keys create|list|revoke`, on either key store (key-store-writer.ts). Each is
 * one atomic change that first records the `expired` events due: a key's expiry takes effect by itself
 * (servers refuse it from that instant), so its event is written by the first `outlay keys` command run
 * after it, with `at` the expiry time and `recorded` the time of writing.
 */

import { digestApiKey, generateApiKey, generateKeyId } from './api-key.js';
import { type AuditEvent, auditEvent, currentActor } from './audit-log.js';
import type { KeyChange, KeyStoreWriter } from './key-store-writer.js';
import { fileKeyStoreWriter } from './key-store-writer.js';
import type { KeysFile, Scope, StoredKey } from './keys-file.js';

/** When and by whom a change is made; both default to now and the operating-system user. */
export interface ChangeContext {
  readonly now?: Date;
  readonly actor?: string;
}

export interface NewKeyOptions extends ChangeContext {
  readonly scopes: readonly Scope[];
  readonly name?: string;
  readonly expires?: Date;
  readonly rateLimit?: number;
}

/** Describes a key without its hash or bookkeeping: what `keys list` shows. */
export type KeySummary = Omit<StoredKey, 'sha256' | 'expiryAudited'>;

/** A store, or the path of a keys file. */
export type KeyStoreTarget = KeyStoreWriter | string;

const writerOf = (target: KeyStoreTarget): KeyStoreWriter =>
  typeof target === 'string' ? fileKeyStoreWriter(target) : target;

function summarise(key: StoredKey): KeySummary {
  const { sha256: _hash, expiryAudited: _audited, ...summary } = key;
  return summary;
}

interface Resolved {
  readonly now: Date;
  readonly actor: string;
}

const resolve = (context: ChangeContext): Resolved => ({
  now: context.now ?? new Date(),
  actor: context.actor ?? currentActor(),
});

/** Marks every key that has expired since the last command and is not revoked, with one event each. */
function auditExpiries(file: KeysFile, { now, actor }: Resolved): { file: KeysFile; events: AuditEvent[] } {
  const recorded = now.toISOString();
  const events: AuditEvent[] = [];
  const keys = file.keys.map((key) => {
    if (key.revoked !== null || key.expires === null || key.expiryAudited !== undefined) return key;
    if (Date.parse(key.expires) > now.getTime()) return key;
    events.push(auditEvent('expired', key, actor, key.expires, recorded));
    return { ...key, expiryAudited: recorded };
  });
  return { file: { ...file, keys }, events };
}

/** `change` applied after the due expiries, its events after theirs. */
function afterExpiries<T>(
  current: KeysFile,
  context: Resolved,
  change: (file: KeysFile) => KeyChange<T>,
): KeyChange<T> {
  const swept = auditExpiries(current, context);
  const changed = change(swept.file);
  return { ...changed, events: [...swept.events, ...changed.events] };
}

/** Create a key, store its hash, and return the key itself: the only time it exists outside its owner. */
export async function createKey(
  target: KeyStoreTarget,
  options: NewKeyOptions,
): Promise<{ key: string; record: KeySummary }> {
  const context = resolve(options);
  const key = generateApiKey();
  const created = context.now.toISOString();
  const stored: StoredKey = {
    id: generateKeyId(),
    name: options.name ?? '',
    sha256: digestApiKey(key).toString('hex'),
    scopes: [...new Set(options.scopes)],
    rateLimit: options.rateLimit ?? null,
    created,
    expires: options.expires?.toISOString() ?? null,
    revoked: null,
  };
  const record = await writerOf(target).update(
    (current) =>
      afterExpiries(current, context, (file) => ({
        file: { ...file, keys: [...file.keys, stored] },
        events: [auditEvent('created', stored, context.actor, created, created)],
        result: summarise(stored),
      })),
    { mayCreate: true },
  );
  return { key, record };
}

export async function listKeys(target: KeyStoreTarget, context: ChangeContext = {}): Promise<KeySummary[]> {
  return writerOf(target).update((current) =>
    afterExpiries(current, resolve(context), (file) => ({
      file,
      events: [],
      result: file.keys.map(summarise),
    })),
  );
}

/** Mark a key revoked (kept for the record). Revoking a revoked key keeps its first date and logs nothing. */
export async function revokeKey(
  target: KeyStoreTarget,
  id: string,
  context: ChangeContext = {},
): Promise<KeySummary> {
  const writer = writerOf(target);
  const resolved = resolve(context);
  return writer.update((current) =>
    afterExpiries(current, resolved, (file) => {
      const found = file.keys.find((key) => key.id === id);
      if (found === undefined) throw new Error(`no key with id ${id} in ${writer.description}`);
      if (found.revoked !== null) return { file, events: [], result: summarise(found) };
      const at = resolved.now.toISOString();
      const revoked: StoredKey = { ...found, revoked: at };
      return {
        file: { ...file, keys: file.keys.map((key) => (key === found ? revoked : key)) },
        events: [auditEvent('revoked', revoked, resolved.actor, at, at)],
        result: summarise(revoked),
      };
    }),
  );
}
