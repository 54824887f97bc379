// Generated from manifests/streams.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.streams`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** Where messages live: the database (default), or NATS JetStream (one JetStream stream per runtime stream). */
  backend: 'postgres' | 'nats';
  /** The nats backend (backend: nats). */
  nats: {
    /** The NATS server of the nats backend. */
    url: string;
  };
  /** Largest message body. */
  max_message_bytes: number;
  /** Largest sum of bodies in one publish (the HTTP JSON body limit applies first). */
  max_batch_bytes: number;
  /** How often the streams.retention job runs. */
  retention_interval_seconds: number;
  /** Most messages one retention statement deletes (each in its own short transaction). */
  retention_batch: number;
  /** How often an open tail looks for new messages when no event woke it. */
  tail_poll_ms: number;
};

export type Id = string;

export type MessageId = string;

export type Retention = {
  /** Messages older than this are removed. */
  max_age_hours?: number;
  /** Each partition keeps at most this many messages (the newest). */
  max_messages?: number;
};

export type Stream = {
  id: Id;
  tenant_id: string;
  name: string;
  partitions: number;
  retention: Retention;
  codec: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
};

export type StreamList = {
  items: Stream[];
};

export type StreamCreate = {
  id?: Id;
  name: string;
  partitions: number;
  retention?: Retention;
  codec?: string | null;
};

export type StreamPatch = {
  name?: string;
  /** Partitions can only grow. */
  partitions?: number;
  retention?: Retention;
  codec?: string | null;
};

export type Headers = Record<string, string>;

export type PublishedMessage = {
  key?: string;
  headers?: Headers;
  /** Encoded by the stream's codec, or stored as JSON on a stream without one. */
  value?: unknown;
  /** The raw body, base64 (standard alphabet, padded). */
  body_base64?: string;
};

export type Publish = {
  messages: PublishedMessage[];
  /** Publishing again under the same key (on this stream, by anyone) answers the first publish's result; other messages under it are refused with 422. */
  idempotency_key?: string;
};

export type Appended = {
  id: MessageId;
  partition: number;
  offset: number;
};

export type PublishResult = {
  messages: Appended[];
};

export type Message = {
  id: MessageId;
  stream: Id;
  partition: number;
  offset: number;
  key: string | null;
  headers: Record<string, string>;
  content_type: string;
  /** The decoded body, when the stream's codec (or JSON) reads it. */
  value?: unknown;
  /** The body, when it is not shown as value. */
  body_base64?: string;
  /** Body size in bytes. */
  size: number;
  published_at: string;
  /** The message this one replays. */
  replay_of: string | null;
  /** The messages that replay this one (a redrive's or a replay's), oldest first; in a message's detail and in lists filtered on status redriven. */
  replays?: MessageId[];
};

export type MessageList = {
  items: Message[];
};

export type Delivery = {
  workflow: string;
  revision: number;
  run_id: string;
  attempt: number;
  status: DeliveryStatus;
  error: string | null;
  at: string;
};

export type DeliveryStatus = 'pending' | 'processed' | 'filtered' | 'failed' | 'dead';

/** A message's status for a workflow: its latest delivery's, except that dead means an open dead letter (not yet replayed) and redriven a dead message that was replayed (each item then names its replays). */
export type MessageStatus = 'pending' | 'processed' | 'filtered' | 'failed' | 'dead' | 'redriven';

export type MessageDetail = Message & {
  deliveries: Delivery[];
};

export type Replayed = {
  id: MessageId;
  stream: Id;
  partition: number;
  offset: number;
  replay_of: MessageId;
};

export type ConsumerPosition = {
  consumer: string;
  partition: number;
  /** The next offset the consumer will read. */
  committed_offset: number;
  /** Retained messages of the partition at or after the committed offset. */
  lag: number;
  updated_at: string;
};

export type ConsumerList = {
  items: ConsumerPosition[];
};

export type IdParams = {
  id: Id;
};

export type MessageParams = {
  id: string;
};

export type ReadQuery = {
  partition?: number;
  from_offset?: number;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  listStreams: {
    params: Record<string, never>;
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Page size; default 100, larger values are clamped to 500. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  createStream: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      id?: Id;
      name: string;
      partitions: number;
      retention?: Retention;
      codec?: string | null;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      idempotency_key?: string;
    };
    tenant: true;
    authenticated: true;
  };
  getStream: {
    params: {
      id: Id;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  patchStream: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      name?: string;
      /** Partitions can only grow. */
      partitions?: number;
      retention?: Retention;
      codec?: string | null;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  deleteStream: {
    params: {
      id: Id;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  publishMessages: {
    params: {
      id: Id;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body:
      | {
          messages: PublishedMessage[];
          /** Publishing again under the same key (on this stream, by anyone) answers the first publish's result; other messages under it are refused with 422. */
          idempotency_key?: string;
          /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
          tenant_id?: string;
        }
      | Buffer;
    tenant: true;
    authenticated: true;
  };
  readStreamMessages: {
    params: {
      id: Id;
    };
    query: {
      partition?: number;
      from_offset?: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Page size; default 100, larger values are clamped to 1000. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  tailStream: {
    params: {
      id: Id;
    };
    query: {
      partition?: number;
      from_offset?: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  listConsumers: {
    params: {
      id: Id;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Page size; default 100, larger values are clamped to 1000. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  commitConsumerOffsets: {
    params: {
      id: Id;
      consumer: string;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      offsets: {
        partition: number;
        offset: number;
      }[];
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  listMessages: {
    params: Record<string, never>;
    query: {
      stream?: Id;
      workflow?: string;
      status?: MessageStatus;
      since?: string;
      until?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Page size; default 100, larger values are clamped to 1000. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  getMessage: {
    params: {
      id: string;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  getMessageBody: {
    params: {
      id: string;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  replayMessage: {
    params: {
      id: string;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      target_stream?: Id;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      request_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  redriveMessages: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      workflow: string;
      status: 'dead';
      since?: string;
      until?: string;
      limit: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      request_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
};
