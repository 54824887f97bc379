import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { Authenticator, HeldCredential, Principal } from '../types.js';

/** Close codes the kernel uses (4401 mirrors HTTP 401: open a new ticket with a valid credential). */
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_INTERNAL_ERROR = 1011;
export const CLOSE_CREDENTIAL_REVOKED = 4401;

/** A socket that has not finished its closing handshake in this time is cut. */
const CLOSE_GRACE_MS = 1000;
/** Credentials checked in one statement at most. */
const REVALIDATE_BATCH = 500;

export interface SocketLimits {
  maxPerSubject: number;
  pingIntervalMs: number;
  revalidateIntervalMs: number;
}

interface OpenSocket {
  socket: WebSocket;
  held: HeldCredential;
  alive: boolean;
}

export interface SocketRegistry {
  /**
   * Takes one of the subject's socket slots before the upgrade, or answers undefined when the
   * subject holds the maximum on this instance. The slot is freed by the returned function
   * (idempotent), which the caller ties to the connection's end.
   */
  reserve(principal: Principal): (() => void) | undefined;
  /** Watches an upgraded socket: heartbeat, credential re-checks, shutdown. */
  track(socket: WebSocket, principal: Principal): void;
  readonly size: number;
  /** Closes every socket (1001) and stops the timers; resolves once all have closed. */
  close(): Promise<void>;
}

function subjectKey(principal: Principal): string {
  return `${principal.tenantId}\u001f${principal.subjectId}`;
}

/** Sends a close frame, and cuts the connection if the peer does not answer it in time. */
export function closeSocket(socket: WebSocket, code: number, reason: string): Promise<void> {
  return new Promise((resolve) => {
    if (socket.readyState === socket.CLOSED) return resolve();
    const cut = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    socket.once('close', () => {
      clearTimeout(cut);
      resolve();
    });
    socket.close(code, reason);
  });
}

/**
 * The open sockets of this instance. Revocation is read from the database, so it works across
 * instances: about every `revalidateIntervalMs` the sockets' credentials are checked in one
 * pass per credential kind (`Authenticator.stillValid`), and the sockets of a revoked session,
 * token or disabled user are closed with 4401. A kind whose authenticator cannot tell (OIDC
 * access tokens) is not re-checked. Idle instances run no query.
 */
export function createSocketRegistry(input: {
  db: Knex;
  logger: Logger;
  limits: SocketLimits;
  authenticators: () => readonly Authenticator[];
}): SocketRegistry {
  const { db, logger, limits } = input;
  const open = new Set<OpenSocket>();
  const slots = new Map<string, number>();
  let closing = false;

  function release(key: string): void {
    const left = (slots.get(key) ?? 1) - 1;
    if (left > 0) slots.set(key, left);
    else slots.delete(key);
  }

  let lastBeat = performance.now();
  function beat(): void {
    const now = performance.now();
    // A beat that comes late ran after a stall (a long task, a starved CPU): timers run before
    // the socket reads of the same loop turn, so the pongs that came meanwhile are not read yet.
    // It judges nobody; the next beat, on time, judges by the last ping.
    const late = now - lastBeat > limits.pingIntervalMs * 1.5;
    lastBeat = now;
    if (late) return;
    for (const entry of open) {
      if (!entry.alive) {
        entry.socket.terminate();
        continue;
      }
      entry.alive = false;
      entry.socket.ping();
    }
  }

  async function revalidate(): Promise<void> {
    type StillValid = NonNullable<Authenticator['stillValid']>;
    const byKind = new Map<string, { stillValid: StillValid; entries: OpenSocket[] }>();
    const links = input.authenticators();
    for (const entry of open) {
      const kind = entry.held.credential.kind;
      let group = byKind.get(kind);
      if (!group) {
        const link = links.find((a) => a.name === kind);
        const stillValid = link?.stillValid?.bind(link);
        if (!stillValid) continue;
        group = { stillValid, entries: [] };
        byKind.set(kind, group);
      }
      group.entries.push(entry);
    }
    for (const [kind, { stillValid, entries }] of byKind) {
      const distinct = new Map<string, HeldCredential>();
      for (const entry of entries) distinct.set(`${entry.held.tenantId}\u001f${entry.held.credential.id}`, entry.held);
      const held = [...distinct.values()];
      const valid = new Set<string>();
      try {
        for (let i = 0; i < held.length; i += REVALIDATE_BATCH) {
          for (const id of await stillValid(held.slice(i, i + REVALIDATE_BATCH), db)) valid.add(id);
        }
      } catch (err) {
        // The database is out of reach: nobody can revoke anything meanwhile either, so the
        // sockets stay open and the next pass decides.
        logger.warn({ err, kind }, "open sockets' credentials could not be checked");
        continue;
      }
      for (const entry of entries) {
        if (!valid.has(entry.held.credential.id) && open.has(entry)) {
          open.delete(entry);
          logger.info({ kind, credential: entry.held.credential.id }, 'socket closed: its credential was revoked');
          void closeSocket(entry.socket, CLOSE_CREDENTIAL_REVOKED, 'credential revoked');
        }
      }
    }
  }

  let checking = false;
  function check(): void {
    if (checking || open.size === 0) return;
    checking = true;
    revalidate()
      .catch((err: unknown) => logger.error({ err }, 'socket revalidation failed'))
      .finally(() => {
        checking = false;
      });
  }

  // Started with the first socket, so an instance that never opens one keeps no timers.
  let timers: NodeJS.Timeout[] | undefined;
  function startTimers(): void {
    if (timers) return;
    timers = [setInterval(beat, limits.pingIntervalMs), setInterval(check, limits.revalidateIntervalMs)];
    for (const timer of timers) timer.unref();
  }

  return {
    reserve(principal) {
      const key = subjectKey(principal);
      const held = slots.get(key) ?? 0;
      if (held >= limits.maxPerSubject) return undefined;
      slots.set(key, held + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release(key);
      };
    },

    track(socket, principal) {
      if (closing) {
        void closeSocket(socket, CLOSE_GOING_AWAY, 'server shutting down');
        return;
      }
      const entry: OpenSocket = {
        socket,
        held: { tenantId: principal.tenantId, subjectId: principal.subjectId, credential: principal.credential },
        alive: true,
      };
      open.add(entry);
      startTimers();
      socket.on('pong', () => {
        entry.alive = true;
      });
      socket.once('close', () => open.delete(entry));
    },

    get size() {
      return open.size;
    },

    async close() {
      closing = true;
      for (const timer of timers ?? []) clearInterval(timer);
      const pending = [...open].map((entry) => closeSocket(entry.socket, CLOSE_GOING_AWAY, 'server shutting down'));
      open.clear();
      await Promise.all(pending);
    },
  };
}
