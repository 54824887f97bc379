import type { SqlTable } from '../sql/contract.js';

/** What the SQL console reads of a tenant's streams, messages, deliveries and consumer offsets, under readable names. */
export const streamSqlTables: readonly SqlTable[] = [
  {
    table: 'streams_streams',
    view: {
      name: 'streams',
      select:
        't.id, t.name, t.partitions, t.codec, t.max_age_hours, t.max_messages, t.revision, t.created_at, t.updated_at',
    },
  },
  {
    table: 'streams_messages',
    view: {
      name: 'messages',
      // The body as a value where its content type says JSON, as text where it is text; a codec's
      // binary encoding (Avro, MessagePack, CBOR) is decoded by GET /messages/{id}, not in SQL.
      select: `t.id, t.stream, t.partition, t."offset", t.key, t.headers, t.content_type, t.codec, t.codec_revision,
        CASE WHEN t.content_type LIKE '%json%' THEN sql_console_json(t.body) END AS value,
        CASE WHEN t.content_type LIKE '%json%' OR t.content_type LIKE 'text/%' OR t.content_type LIKE '%xml%'
          THEN sql_console_text(t.body) END AS text,
        t.body, t.size, t.published_at, t.replay_of`,
    },
  },
  {
    table: 'streams_deliveries',
    view: {
      name: 'deliveries',
      select:
        't.message_id, t.workflow, t.revision, t.run_id, t.attempt, t.status, t.error, t.outputs, t.at, t.published_at',
    },
  },
  {
    table: 'streams_consumer_offsets',
    view: {
      name: 'consumer_offsets',
      select: `(SELECT s.name FROM streams_streams s WHERE s.uid = t.stream_uid AND s.tenant_id = t.tenant_id) AS stream,
        t.consumer, t.partition, t.committed_offset, t.updated_at`,
    },
  },
];
