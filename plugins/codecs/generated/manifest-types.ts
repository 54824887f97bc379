// Generated from manifests/codecs.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.codecs`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** Which readers an avro schema change must keep working: full (default) = new readers read old data and readers still on the old schema read new data (a removed field without default breaks it); backward = only new readers read old data (Confluent's BACKWARD). */
  avro_compatibility: 'full' | 'backward';
};

export type Id = string;

export type KindName = string;

/** The kind's schema: avro, the Avro schema (JSON); protobuf, {proto, message}; csv, {delimiter, header, columns}; json, an optional JSON Schema values must match; null or absent where the kind takes none. */
export type SchemaField = unknown;

export type Codec = {
  id: Id;
  tenant_id: string;
  name: string;
  kind: KindName;
  schema: SchemaField;
  /** Moves on with every change; the ETag is this number, quoted. */
  revision: number;
  created_at: string;
  updated_at: string;
};

export type CodecList = {
  items: Codec[];
};

export type CodecCreate = {
  id?: Id;
  name: string;
  kind: KindName;
  schema?: SchemaField;
};

export type CodecReplace = {
  name: string;
  /** Defaults to the codec's kind; another kind breaks compatibility (422 unless force). */
  kind?: KindName;
  schema?: SchemaField;
};

export type CompatibilityProblem = {
  path: string;
  problem: string;
};

export type CodecRevision = {
  codec_id: Id;
  revision: number;
  name: string;
  kind: KindName;
  schema: SchemaField;
  /** What broke compatibility when this revision was kept with ?force=true; null otherwise. */
  forced_problems: CompatibilityProblem[] | null;
  /** Subject that made the revision. */
  changed_by: string | null;
  created_at: string;
};

export type CodecRevisionList = {
  items: CodecRevision[];
};

export type CodecKind = {
  kind: KindName;
  /** The plugin that contributes it. */
  plugin: string;
  /** JSON Schema of the kind's schema field; null when it takes none. */
  schema_schema: Record<string, unknown> | null;
  /** Whether a PUT checks schema changes for compatibility. */
  schema_evolution: boolean;
};

export type CodecKindList = {
  items: CodecKind[];
};

export type IdParams = {
  id: Id;
};

export type EncodeBody = {
  /** The value to encode, as the kind maps it to JSON. */
  value: unknown;
};

export type DecodeResult = {
  /** The decoded value, as the kind maps it to JSON. */
  value: unknown;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  listCodecKinds: {
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
    tenant: false;
    authenticated: true;
  };
  listCodecs: {
    params: Record<string, never>;
    query: {
      kind?: KindName;
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
  createCodec: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      id?: Id;
      name: string;
      kind: KindName;
      schema?: SchemaField;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      idempotency_key?: string;
    };
    tenant: true;
    authenticated: true;
  };
  getCodec: {
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
  replaceCodec: {
    params: {
      id: Id;
    };
    query: {
      /** Keep a change that breaks compatibility. */
      force: boolean;
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      name: string;
      /** Defaults to the codec's kind; another kind breaks compatibility (422 unless force). */
      kind?: KindName;
      schema?: SchemaField;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  deleteCodec: {
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
  listCodecRevisions: {
    params: {
      id: Id;
    };
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
  decodeWithCodec: {
    params: {
      id: Id;
    };
    query: {
      /** The revision the bytes were written with; defaults to the current one. */
      revision?: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  encodeWithCodec: {
    params: {
      id: Id;
    };
    query: Record<string, never>;
    body: {
      /** The value to encode, as the kind maps it to JSON. */
      value: unknown;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
};
