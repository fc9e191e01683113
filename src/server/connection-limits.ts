/**
 * Limits on connections that hold a socket without sending a request (docs/api.md, "Security"):
 * - a TLS handshake must finish within the headers timeout (Node's own default is 120 s), so that silent
 *   or half-sent ClientHellos cannot pile up against the connection cap;
 * - one client address may hold at most `maxConnectionsPerAddress` connections, so that it cannot take
 *   every slot of `maxConnections`. Behind a trusted proxy every connection comes from the proxy, so the
 *   per-address cap is off there unless set explicitly.
 */
import type { Server, Socket } from 'node:net';
import type { ServerConfig } from './config.js';

/** Without a trusted proxy: room for several batch jobs (16 connections each by default) from one host. */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64;

/** The cap in force: the configured one, else the default, or none (0) behind a trusted proxy. */
export function connectionsPerAddress(config: ServerConfig): number {
  if (config.maxConnectionsPerAddress !== undefined) return config.maxConnectionsPerAddress;
  const behindProxy = config.trustProxy !== undefined && config.trustProxy !== false;
  return behindProxy ? 0 : DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
}

/**
 * Closes a connection on arrival when its address already holds `cap` open ones. Runs before the HTTP
 * or TLS server sees the socket, as Node's own `maxConnections` check does.
 */
export function capConnectionsPerAddress(server: Server, cap: number): void {
  if (cap === 0) return;
  const open = new Map<string, number>();
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const held = open.get(address) ?? 0;
    if (held >= cap) {
      socket.destroy();
      return;
    }
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
