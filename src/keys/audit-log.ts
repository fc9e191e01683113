/**
 * The audit log of key events: one JSON object per event, appended, never rewritten. It names a key by its
 * id only, never by the key or its hash (an id is safe to show; a hash lets anyone holding the log test
 * guesses offline). The keys file's log is a file beside it (`<keys file>.audit.log`, opened O_APPEND,
 * mode 0600); the Redis store's is a stream (redis-keys.ts). Both are written under the same lock or
 * transaction as the change they record.
 */
import { open } from 'node:fs/promises';
import { userInfo } from 'node:os';
import Type, { type Static } from '../vendor/typebox.js';
import { SCOPES, type StoredKey } from './keys-file.js';

const IsoTimestamp = Type.String({ format: 'date-time' });

export const AuditEvent = Type.Object(
  {
    event: Type.Union([Type.Literal('created'), Type.Literal('revoked'), Type.Literal('expired')]),
    keyId: Type.String({ pattern: '^key_[0-9a-f]{12}$' }),
    name: Type.String(),
    scopes: Type.Array(Type.Enum(SCOPES)),
    /** Who made the change: `--actor`, else the operating-system user who ran `outlay keys`. */
    actor: Type.String(),
    /** When the event took effect: for `expired`, the key's expiry time. */
    at: IsoTimestamp,
    /** When the line was written: later than `at` for `expired`, equal otherwise. */
    recorded: IsoTimestamp,
  },
  { additionalProperties: false },
);
export type AuditEvent = Static<typeof AuditEvent>;

export function auditEvent(
  event: AuditEvent['event'],
  key: StoredKey,
  actor: string,
  at: string,
  recorded: string,
): AuditEvent {
  return { event, keyId: key.id, name: key.name, scopes: [...key.scopes], actor, at, recorded };
}

export const auditLogPathOf = (keysFile: string): string => `${keysFile}.audit.log`;

/** The operating-system user, or their uid where there is no user database entry (some containers). */
export function currentActor(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? 'unknown'}`;
  }
}

/** Append the events as JSON lines in one write (O_APPEND) and flush them to disk. */
export async function appendAuditLines(path: string, events: readonly AuditEvent[]): Promise<void> {
  const log = await open(path, 'a', 0o600);
  try {
    await log.write(events.map((event) => `${JSON.stringify(event)}\n`).join(''));
    await log.datasync();
  } finally {
    await log.close();
  }
}
