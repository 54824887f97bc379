import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import type { Database } from '../db/connect.js';
import type { EventHandler, Events, KernelEvent } from './types.js';
import { openListener, type Listener } from './listener.js';
import { notifyEmbedded } from './listen-embedded.js';
import { afterCommit } from '../db/after-commit.js';
import {
  LAST_ID,
  addEvent,
  addEventRow,
  currentPosition,
  dropForeignEvents,
  insertEvent,
  insertEventRow,
  nextXact,
  parseNotification,
  readAfter,
  readByIds,
  type EventRow,
  type Position,
} from './store.js';

export interface EventBusOptions {
  database: Database;
  /** The server's URL (the listener opens its own connection); absent on the embedded database. */
  url?: string | undefined;
  logger: Logger;
  metrics: Registry;
  /** How often the table is read for events whose notification was lost. */
  pollMs: number;
  /** How long `stop` waits for handlers still running. */
  stopTimeoutMs: number;
}

export interface EventBus extends Events {
  /** Starts delivering: events published from now on (and by transactions still open) reach the subscribers. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

const TOPIC = /^[a-z][a-z0-9_.-]{0,99}$/;
const MAX_PAYLOAD_BYTES = 64 * 1024;
const BATCH = 500;
/** Events delivered by notification before the poll reached them, remembered so the poll skips them. */
const EARLY_LIMIT = 100_000;
/**
 * After the listener (re)connects, the poll looks again after this, then twice as long each time
 * up to the poll interval, until it has read everything committed before the connect: the
 * notifications sent meanwhile were lost, and the poll reads only below the horizon, which any
 * transaction still open on the server (of any client) holds back.
 */
const CATCH_UP_FIRST_MS = 100;

interface Subscription {
  readonly handler: EventHandler;
  active: boolean;
  /** The handler's calls, one after another. */
  queue: Promise<void>;
}

/** Channels are per database, not per schema: instances in different schemas must not wake each other. */
export function channelFor(schema: string): string {
  const name = `kernel_events_${schema}`;
  return name.length <= 63 ? name : `kernel_events_${createHash('sha256').update(schema).digest('hex').slice(0, 32)}`;
}

function checkTopic(topic: string): void {
  if (!TOPIC.test(topic)) throw new TypeError(`event topic "${topic}" must match ${TOPIC.source}`);
}

/** The payload as stored: JSON within the size limit, under a valid topic. */
function eventJson(topic: string, payload: unknown): string {
  checkTopic(topic);
  const json = JSON.stringify(payload ?? null);
  if (Buffer.byteLength(json) > MAX_PAYLOAD_BYTES)
    throw new RangeError(`event payload of "${topic}" is over ${MAX_PAYLOAD_BYTES} bytes`);
  return json;
}

/**
 * The events service: rows in `kernel_events`, a notification per event as the wake-up, and a
 * poll behind it. Reading follows (transaction, id) below the horizon of finished transactions,
 * so the poll never skips an event that commits late; the notification path delivers at once and
 * the poll then skips what it already delivered.
 */
export function createEventBus(options: EventBusOptions): EventBus {
  const { database, logger } = options;
  const db = database.knex;
  const subscriptions = new Map<string, Set<Subscription>>();
  const early = new Map<number, number>();
  const notifiedIds = new Set<number>();
  /** Events that came whole in their notification, waiting for the next delivery round. */
  const notifiedRows: EventRow[] = [];
  let channel: Promise<string> | undefined;
  let position: Position | undefined;
  let listener: Listener | undefined;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let polling: Promise<void> | undefined;
  let pollAgain = false;
  let fetching: Promise<void> = Promise.resolve();
  let fetchScheduled = false;
  let failing = false;
  /** Set on a (re)connect: the poll has caught up once its position reaches this transaction id. */
  let catchUpTo: number | undefined;
  let catchUpDelay = CATCH_UP_FIRST_MS;
  let stopped = false;

  const received = new Counter({
    name: 'kernel_events_received_total',
    help: 'Events this instance read, by how it learnt of them: notify (the notification) or poll (the table, after a lost notification).',
    labelNames: ['path'],
    registers: [options.metrics],
  });
  const published = new Counter({
    name: 'kernel_events_published_total',
    help: 'Events published by this instance.',
    registers: [options.metrics],
  });
  const failures = new Counter({
    name: 'kernel_event_handler_failures_total',
    help: 'Event handlers that threw, by topic.',
    labelNames: ['topic'],
    registers: [options.metrics],
  });

  function channelName(): Promise<string> {
    channel ??= db
      .raw('SELECT current_schema() AS schema')
      .then((r) => channelFor(String((r.rows as Array<{ schema: string }>)[0]?.schema)));
    return channel;
  }

  /** Whether the poll has already moved past this event. */
  function passed(xact: number, id: number): boolean {
    return position !== undefined && (xact < position.xact || (xact === position.xact && id <= position.id));
  }

  function deliver(rows: readonly EventRow[], path: 'notify' | 'poll'): void {
    if (rows.length > 0) received.inc({ path }, rows.length);
    for (const row of rows) {
      const subs = subscriptions.get(row.topic);
      if (!subs) continue;
      const event: KernelEvent = {
        id: String(row.id),
        topic: row.topic,
        payload: row.payload,
        publishedAt: row.created_at,
      };
      for (const sub of subs) {
        sub.queue = sub.queue.then(async () => {
          if (!sub.active) return;
          try {
            await sub.handler(event);
          } catch (err) {
            failures.inc({ topic: row.topic });
            logger.error({ err, topic: row.topic, event: event.id }, 'event handler failed');
          }
        });
      }
    }
  }

  async function poll(): Promise<void> {
    for (;;) {
      if (!position || stopped) return;
      const { rows, horizon } = await readAfter(db, position, BATCH);
      deliver(
        rows.filter((row) => !early.has(row.id)),
        'poll',
      );
      for (const row of rows) early.delete(row.id);
      const last = rows.at(-1);
      if (last) position = { xact: last.xact, id: last.id };
      if (rows.length === BATCH) continue;
      // Every event of a transaction below the horizon has been read.
      if (horizon - 1 > position.xact) position = { xact: horizon - 1, id: LAST_ID };
      for (const [id, xact] of early) if (passed(xact, id)) early.delete(id);
      return;
    }
  }

  function pollSoon(delay: number): void {
    if (stopped) return;
    if (polling) {
      if (delay === 0) pollAgain = true;
      return;
    }
    const at = Date.now() + delay;
    if (timer && timerAt <= at) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      polling = poll()
        .then(
          () => {
            if (failing) logger.info('events are read again');
            failing = false;
          },
          (err: unknown) => {
            if (!failing) logger.warn({ err }, 'events could not be read; retrying');
            failing = true;
          },
        )
        .finally(() => {
          polling = undefined;
          const again = pollAgain;
          pollAgain = false;
          if (catchUpTo !== undefined && position && position.xact >= catchUpTo - 1) catchUpTo = undefined;
          let delay = options.pollMs;
          if (catchUpTo !== undefined) {
            delay = Math.min(catchUpDelay, options.pollMs);
            catchUpDelay *= 2;
          }
          pollSoon(again ? 0 : delay);
        });
    }, delay);
    timer.unref();
  }

  async function fetchNotified(): Promise<void> {
    const ids = [...notifiedIds].slice(0, BATCH);
    for (const id of ids) notifiedIds.delete(id);
    const inline = notifiedRows.splice(0, notifiedRows.length);
    if ((ids.length === 0 && inline.length === 0) || stopped || !position) return;
    try {
      const read = ids.length > 0 ? await readByIds(db, ids) : [];
      // In (xact, id) order, as read back ones are: a burst's notifications are delivered as one round.
      const all = inline.length === 0 ? read : [...inline, ...read].sort((a, b) => a.xact - b.xact || a.id - b.id);
      const rows = all.filter((row) => !passed(row.xact, row.id) && !early.has(row.id));
      for (const row of rows) early.set(row.id, row.xact);
      for (const id of early.keys()) {
        if (early.size <= EARLY_LIMIT) break;
        early.delete(id);
      }
      deliver(rows, 'notify');
    } catch (err) {
      logger.debug({ err }, 'notified events could not be read; the poll will deliver them');
    }
    if (notifiedIds.size > 0) fetchSoon();
  }

  function fetchSoon(): void {
    if (fetchScheduled) return;
    fetchScheduled = true;
    // Gathers the notifications of a burst into one read.
    setImmediate(() => {
      fetchScheduled = false;
      fetching = fetching.then(fetchNotified);
    });
  }

  return {
    async publish(topic, payload, publishOptions = {}) {
      const json = eventJson(topic, payload);
      const target = publishOptions.db ?? db;
      const name = await channelName();
      if (database.kind !== 'embedded') {
        const id = await insertEvent(target, name, topic, json);
        published.inc();
        return id;
      }
      const { id, row } = await insertEventRow(target, topic, json);
      published.inc();
      afterCommit(target, () => notifyEmbedded(db, name, row));
      return id;
    },
    async publishIn(write, topic, payload) {
      const json = eventJson(topic, payload);
      const name = await channelName();
      if (database.kind === 'embedded') addEventRow(write, topic, json, (row) => notifyEmbedded(db, name, row));
      else addEvent(write, name, topic, json);
      write.onCommit(() => published.inc());
    },
    subscribe(topic, handler) {
      checkTopic(topic);
      const sub: Subscription = { handler, active: true, queue: Promise.resolve() };
      let subs = subscriptions.get(topic);
      if (!subs) subscriptions.set(topic, (subs = new Set()));
      subs.add(sub);
      return () => {
        sub.active = false;
        subs.delete(sub);
      };
    },
    async start() {
      const name = await channelName();
      await dropForeignEvents(db);
      position = await currentPosition(db);
      listener = await openListener(
        database,
        options.url,
        name,
        {
          notified(payload) {
            const said = parseNotification(payload);
            if (!said) return;
            if ('row' in said) notifiedRows.push(said.row);
            else notifiedIds.add(said.id);
            fetchSoon();
          },
          connected: () => {
            nextXact(db).then(
              (xact) => {
                catchUpTo = xact;
                catchUpDelay = CATCH_UP_FIRST_MS;
                pollSoon(0);
              },
              () => pollSoon(0),
            );
          },
        },
        logger,
      );
      pollSoon(options.pollMs);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await listener?.close();
      await polling;
      await fetching;
      const queues = [...subscriptions.values()].flatMap((subs) => [...subs].map((s) => s.queue));
      let bound: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        Promise.all(queues).then(() => true),
        new Promise<boolean>((resolve) => (bound = setTimeout(() => resolve(false), options.stopTimeoutMs))),
      ]);
      clearTimeout(bound);
      if (!finished) logger.warn('event handlers still running at shutdown');
    },
  };
}
