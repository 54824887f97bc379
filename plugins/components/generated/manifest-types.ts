// Generated from manifests/components.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.components`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** How often the supervisor looks again at a source that should run but is not running (a failed one is retried sooner or later by the job runner's backoff). */
  supervisor_interval_ms: number;
};

export type ComponentType = {
  name: string;
  kind: 'source' | 'processor' | 'sink';
  /** The plugin that contributes it. */
  plugin: string;
  summary?: string;
  /** JSON Schema of a component's config; fields marked x-secret are write-only. */
  config_schema: Record<string, unknown>;
};

export type ComponentTypeList = {
  items: ComponentType[];
};

export type Id = string;

export type Tags = string[];

export type State = 'stopped' | 'running' | 'failed';

export type Component = {
  id: Id;
  tenant_id: string;
  name: string;
  description: string;
  state: State;
  tags: Tags;
  /** The config without its secret fields. */
  config: Record<string, unknown>;
  revision: number;
  created_at: string;
  updated_at: string;
  /** The component type (GET /component-types); `legacy` for components made before types existed. */
  type: string;
  stream: string | null;
  /** What an operator asked for; `state` is what runs. */
  desired_state: 'stopped' | 'running';
  status: {
    state: State;
    last_error: string | null;
    since: string;
    /** A failed source: when it is tried again (1 s after the first failure, doubling, at most a minute apart). */
    next_attempt_at?: string;
  };
  /** The secret (x-secret) config fields that are set; their values are never returned. */
  secrets_set: string[];
  /** Create only: secrets the service generated and where a receiving source listens (path, url). Never shown again. */
  shown_once?: {
    secrets?: Record<string, string>;
    path?: string;
    url?: string;
  };
};

export type ComponentCreate = {
  id?: Id;
  name: string;
  description?: string;
  tags?: Tags;
  /** Validated against the type's config_schema. Secret fields are write-only: left out on PUT/PATCH they are kept; null clears one. */
  config?: Record<string, unknown>;
  type: TypeName;
  stream?: StreamId;
};

export type ComponentReplace = {
  name: string;
  description?: string;
  tags?: Tags;
  /** Validated against the type's config_schema. Secret fields are write-only: left out on PUT/PATCH they are kept; null clears one. */
  config?: Record<string, unknown>;
  stream?: StreamId;
};

export type ComponentPatch = {
  name?: string;
  description?: string;
  tags?: Tags;
  /** Validated against the type's config_schema. Secret fields are write-only: left out on PUT/PATCH they are kept; null clears one. */
  config?: Record<string, unknown>;
  stream?: StreamId;
};

export type ComponentList = {
  items: Component[];
};

export type IdParams = {
  id: Id;
};

export type ActionBody = {
  reason?: string;
};

export type ActionResult = {
  component: Component;
  action: 'start' | 'stop' | 'restart';
  previous_state: State;
};

export type TypeName = string;

/** Source components: the stream of the tenant that the source appends to (required for sources; a workflow whose input is {component} reads this stream). */
export type StreamId = string | null;

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  listComponentTypes: {
    params: Record<string, never>;
    query: {
      kind?: 'source' | 'processor' | 'sink';
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
  listComponents: {
    params: Record<string, never>;
    query: {
      state?: State;
      tag?: string;
      type?: string;
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
  createComponent: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      id?: Id;
      name: string;
      description?: string;
      tags?: Tags;
      /** Validated against the type's config_schema. Secret fields are write-only: left out on PUT/PATCH they are kept; null clears one. */
      config?: Record<string, unknown>;
      type: TypeName;
      stream?: StreamId;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      idempotency_key?: string;
    };
    tenant: true;
    authenticated: true;
  };
  getComponent: {
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
  replaceComponent: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      name: string;
      description?: string;
      tags?: Tags;
      /** Validated against the type's config_schema. Secret fields are write-only: left out on PUT/PATCH they are kept; null clears one. */
      config?: Record<string, unknown>;
      stream?: StreamId;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  patchComponent: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      name?: string;
      description?: string;
      tags?: Tags;
      /** Validated against the type's config_schema. Secret fields are write-only: left out on PUT/PATCH they are kept; null clears one. */
      config?: Record<string, unknown>;
      stream?: StreamId;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  deleteComponent: {
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
  startComponent: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      reason?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      request_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  stopComponent: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      reason?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      request_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  restartComponent: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      reason?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      request_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
};
