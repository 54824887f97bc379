import type { Migration } from '../../../kernel/types.js';

/**
 * Which codec revision wrote each message's body, so it is read later with the schema that wrote
 * it (resolved to the codec's current one). Null for messages of streams without a codec, and for
 * those published before this column. The nats backend keeps the same in each message's metadata.
 */
export const addMessageWriter: Migration = {
  name: '004_message_writer',
  async up(db) {
    await db.raw('ALTER TABLE streams_messages ADD COLUMN codec text, ADD COLUMN codec_revision integer');
  },
  async down(db) {
    await db.raw('ALTER TABLE streams_messages DROP COLUMN codec, DROP COLUMN codec_revision');
  },
};
