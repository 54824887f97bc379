import type { Knex } from 'knex';
import { dropDeadLetters, dropDeadLettersWith } from './dead-letter-store.js';
import { ApiError } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/types.js';
import type { CombinedWrite, Events, Extensions } from '../../kernel/plugin/api.js';
import type { Appended, NewMessage, StoredMessage, StreamBackend, StreamRef } from './backend.js';
import { streamCodecs, type StreamCodec } from './contract.js';
import { batchFingerprint, dedupKeyOf, type Limits } from './encode.js';
import type { Settings } from './generated/manifest-types.js';
import { PublishStore, StreamStore, type StreamRecord } from './store.js';

type Db = Knex | Knex.Transaction;

/** The event that says "a partition has new messages": a wake-up hint for tails, never the data. */
export const APPENDED_TOPIC = 'streams.appended';

export interface AppendedEvent {
  tenant_id: string;
  stream_uid: string;
  partitions: number[];
}

/** `settings.streams` (generated from manifests/streams.json). */
export type StreamsSettings = Settings;

/** Streams kept for publishing, at most (a full cache starts over). */
const PUBLISH_CACHE_SIZE = 10_000;

/** What the handlers share: the backend, the codec resolver, and publishing with its idempotency. */
export class StreamsService {
  readonly limits: Limits;
  /**
   * Streams looked up to publish, kept until a stream changes — only where this process is the
   * database's one user (the embedded database, whose directory is locked to it), so every change
   * goes through `streamsChanged` and the cache is exact. On a server another instance may change
   * a stream at any moment, so each publish reads it.
   */
  readonly #publishCache: Map<string, StreamRecord> | undefined;
  /** Bumped by every change: a lookup that began before one does not fill the cache. */
  #generation = 0;

  constructor(
    readonly backend: StreamBackend,
    private readonly extensions: Extensions,
    private readonly events: Events,
    readonly clock: Clock,
    readonly settings: StreamsSettings,
    options: { soleDatabaseUser: boolean } = { soleDatabaseUser: false },
  ) {
    this.limits = { maxMessageBytes: settings.max_message_bytes, maxBatchBytes: settings.max_batch_bytes };
    this.#publishCache = options.soleDatabaseUser ? new Map() : undefined;
  }

  /** The stream a publish goes to: from the cache when this process is the database's one user. */
  async streamToPublish(db: Db, tenantId: string, id: string): Promise<StreamRecord> {
    const cache = this.#publishCache;
    if (!cache) return this.stream(db, tenantId, id);
    const key = `${tenantId}\u0000${id}`;
    const kept = cache.get(key);
    if (kept) return kept;
    const generation = this.#generation;
    const found = await this.stream(db, tenantId, id);
    if (generation === this.#generation) {
      if (cache.size >= PUBLISH_CACHE_SIZE) cache.clear();
      cache.set(key, found);
    }
    return found;
  }

  /** Forgets the streams kept for publishing; called by every write of a stream definition, before it commits. */
  streamsChanged(): void {
    this.#generation++;
    this.#publishCache?.clear();
  }

  /** Whether a codecs plugin is enabled (it contributed the resolver). */
  get codecsEnabled(): boolean {
    return this.extensions.all(streamCodecs).length > 0;
  }

  /** The stream's codec, or undefined for a stream without one. */
  async codecOf(db: Db, stream: { tenant_id: string; codec: string | null }): Promise<StreamCodec | undefined> {
    if (stream.codec === null) return undefined;
    const resolver = this.extensions.all(streamCodecs)[0];
    if (!resolver) return undefined;
    return resolver.resolve(db, stream.tenant_id, stream.codec);
  }

  /**
   * What shows messages: each with the codec revision that wrote it, read as that codec's current
   * revision (schema resolution), or with the stream's codec when no revision was recorded. One
   * per call (or open tail): each (codec, revision) is resolved once.
   */
  decoders(
    db: Db,
    tenantId: string,
  ): { of(streamCodec: string | null, message: StoredMessage): Promise<StreamCodec | undefined> } {
    const resolved = new Map<string, Promise<StreamCodec | undefined>>();
    const resolver = this.extensions.all(streamCodecs)[0];
    return {
      of(streamCodec, message) {
        const writer = message.writer ?? null;
        const codecId = writer?.codec ?? streamCodec;
        if (codecId === null || !resolver) return Promise.resolve(undefined);
        const key = `${codecId}\u0000${writer?.revision ?? ''}`;
        let codec = resolved.get(key);
        if (!codec) {
          codec = resolver.resolve(db, tenantId, codecId, writer?.revision);
          resolved.set(key, codec);
        }
        return codec;
      },
    };
  }

  /** Refuses a codec id that cannot be used: no codecs plugin, or no such codec in the tenant. */
  async checkCodec(db: Db, tenantId: string, codec: string): Promise<void> {
    const resolver = this.extensions.all(streamCodecs)[0];
    const detail = (message: string) => ({ details: [{ in: 'body', pointer: '/codec', message }] });
    if (!resolver)
      throw new ApiError(
        'validation_error',
        'This stream names a codec, but no codecs plugin is enabled.',
        detail('no codecs plugin enabled'),
      );
    if (!(await resolver.resolve(db, tenantId, codec)))
      throw new ApiError(
        'validation_error',
        `No codec "${codec}" in this tenant.`,
        detail('names no codec of this tenant'),
      );
  }

  async stream(db: Db, tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<StreamRecord> {
    const found = await new StreamStore(db).get(tenantId, id, options);
    if (!found) throw new ApiError('not_found', `No stream "${id}".`);
    return found;
  }

  /**
   * Appends messages in the caller's transaction. With an idempotency key, a publish already made
   * under it answers its stored result (`replayed`), and the same key with other messages is refused.
   */
  async publish(
    db: Knex.Transaction,
    stream: StreamRef,
    messages: readonly NewMessage[],
    options: {
      dryRun: boolean;
      idempotencyKey?: string | undefined;
      ahead?: { at: Date; published: readonly Appended[] };
      write?: CombinedWrite;
    },
  ): Promise<{ appended: Appended[]; replayed: boolean }> {
    const now = options.ahead?.at ?? this.clock.now();
    const idempotencyKey = options.idempotencyKey;
    let fingerprint: string | undefined;
    if (idempotencyKey !== undefined) {
      fingerprint = batchFingerprint(messages);
      const stored = await new PublishStore(db).claim(stream, idempotencyKey);
      if (stored) {
        if (stored.fingerprint !== fingerprint)
          throw new ApiError(
            'idempotency_key_reused',
            'This idempotency key was used for other messages on this stream; a new publish needs a new key.',
          );
        return { appended: stored.result, replayed: true };
      }
    }
    const appended = await this.backend.append(db, stream, messages, now, {
      dryRun: options.dryRun,
      ...(idempotencyKey !== undefined && fingerprint !== undefined
        ? { dedupKey: dedupKeyOf(idempotencyKey, fingerprint) }
        : {}),
      ...(options.ahead ? { published: options.ahead.published } : {}),
      ...(options.write ? { write: options.write } : {}),
    });
    if (idempotencyKey !== undefined && fingerprint !== undefined)
      await new PublishStore(db).save(stream, idempotencyKey, fingerprint, appended, now);
    // A replay supersedes its original's dead letters (every workflow's), in the same transaction.
    const replayed = [...new Set(messages.flatMap((m) => (m.replayOf ? [m.replayOf] : [])))];
    const event: AppendedEvent = {
      tenant_id: stream.tenantId,
      stream_uid: stream.uid,
      partitions: [...new Set(appended.map((a) => a.partition))],
    };
    if (options.write) {
      if (replayed.length > 0) dropDeadLettersWith(options.write, stream.tenantId, replayed);
      await this.events.publishIn(options.write, APPENDED_TOPIC, event);
      return { appended, replayed: false };
    }
    if (!options.dryRun && replayed.length > 0) await dropDeadLetters(db, stream.tenantId, replayed);
    await this.events.publish(APPENDED_TOPIC, event, { db });
    return { appended, replayed: false };
  }

  /**
   * Appends as parts of the caller's combined write (one statement with its other parts, no
   * transaction), announcing them as `publish` does, when nothing needs a transaction: a backend
   * that can (postgres), no idempotency key, no replays. False when it cannot: publish then.
   */
  async appendIn(write: CombinedWrite, stream: StreamRef, messages: readonly NewMessage[]): Promise<boolean> {
    if (!this.backend.appendIn || messages.length === 0 || messages.some((m) => m.replayOf !== null)) return false;
    this.backend.appendIn(write, stream, messages, this.clock.now());
    const event: AppendedEvent = {
      tenant_id: stream.tenantId,
      stream_uid: stream.uid,
      partitions: [...new Set(messages.map((m) => m.partition))],
    };
    await this.events.publishIn(write, APPENDED_TOPIC, event);
    return true;
  }

  subscribeAppended(handler: (event: AppendedEvent) => void): () => void {
    return this.events.subscribe(APPENDED_TOPIC, (event) => handler(event.payload as AppendedEvent));
  }
}
