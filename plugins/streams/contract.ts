import type { Knex } from 'knex';
import { extensionPoint } from '../../kernel/plugin/api.js';

/**
 * What the streams plugin offers other plugins. The codecs plugin gives it the one codec
 * resolver: a stream whose `codec` is set encodes published values and decodes shown messages
 * through it. Without a resolver, a stream with a codec is refused at create and messages show
 * as `value` (JSON bodies) or `body_base64`. A plain JavaScript plugin contributes with
 * `{ point: { id: 'streams.codecs' }, value: { resolve } }`.
 */

/** A codec as the streams plugin uses it. Both functions throw ApiError 400 for input that does not fit. */
export interface StreamCodec {
  decode(bytes: Uint8Array): unknown;
  encode(value: unknown): Uint8Array;
  /** The content type of the bytes it makes (`application/avro`, `text/plain`...). */
  contentType: string;
  /**
   * The codec revision whose schema `encode` writes with. Each message it writes records it, so
   * the message can later be read with the schema that wrote it. Absent when the resolver keeps
   * no revisions (messages then decode with whatever the codec is at the time).
   */
  revision?: number;
}

export interface CodecResolver {
  /**
   * The tenant's codec by id, or undefined when it has none by that id. With `writtenBy` (the
   * revision recorded on a message), its `decode` reads bytes written under that revision as
   * values of the current one (schema resolution: a field added since shows its default); a
   * resolver without revisions, or one that no longer has that revision, may ignore it.
   */
  resolve(
    db: Knex | Knex.Transaction,
    tenantId: string,
    codecId: string,
    writtenBy?: number,
  ): Promise<StreamCodec | undefined>;
}

export const streamCodecs = extensionPoint<CodecResolver>('streams.codecs', { single: true });
