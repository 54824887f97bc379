// Generated from manifests/workflows.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.workflows`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** How often a worker looks at its partitions when no append woke it (and re-checks retries). */
  poll_ms: number;
  /** Lease of a (workflow, partition): the time a killed instance's partitions take to move on. */
  lease_ms: number;
  /** Most (tenant, workflow) label pairs this instance exports; more are counted under _other. */
  metrics_max_series: number;
};

export type Id = string;

export type StreamId = string;

export type State = 'draft' | 'running' | 'paused';

/** filtered: the run went through and pushed nothing onward (a filter dropped it); processed: it pushed at least one output. */
export type RunStatus = 'pending' | 'processed' | 'filtered' | 'failed' | 'dead';

export type Step =
  | {
      component: string;
    }
  | {
      type: string;
      config?: Record<string, unknown>;
    };

export type Input =
  | {
      stream: StreamId;
    }
  | {
      component: string;
      stream?: StreamId;
    };

export type ErrorPolicy = {
  max_attempts: number;
  /** Wait before the first retry; doubles with each further one (capped at 5 minutes). */
  backoff_ms: number;
  dead_letter_stream?: StreamId;
};

export type WorkflowCreate = {
  id?: string;
  name: string;
  description?: string;
  input: Input;
  steps?: Step[];
  sinks: Step[];
  on_error?: ErrorPolicy;
  /** Keep a loop where the outputs flow back into the input stream. */
  allow_cycles?: boolean;
  /** Messages per transaction (default 100). */
  batch_size?: number;
};

export type WorkflowReplace = {
  name: string;
  description?: string;
  input: Input;
  steps?: Step[];
  sinks: Step[];
  on_error?: ErrorPolicy;
  /** Keep a loop where the outputs flow back into the input stream. */
  allow_cycles?: boolean;
  /** Messages per transaction (default 100). */
  batch_size?: number;
};

export type WorkflowPatch = {
  name?: string;
  description?: string;
  input?: Input;
  steps?: Step[];
  sinks?: Step[];
  on_error?: ErrorPolicy;
  /** Keep a loop where the outputs flow back into the input stream. */
  allow_cycles?: boolean;
  /** Messages per transaction (default 100). */
  batch_size?: number;
};

export type Workflow = {
  id: string;
  tenant_id: string;
  name: string;
  description?: string;
  input: Input;
  steps: Step[];
  sinks: Step[];
  on_error: ErrorPolicy;
  /** Keep a loop where the outputs flow back into the input stream. */
  allow_cycles?: boolean;
  /** Messages per transaction (default 100). */
  batch_size?: number;
  /** The latest revision; the ETag is this number, quoted. */
  revision: number;
  deployed_revision: number | null;
  state: State;
  /** Present while the worker cannot process the workflow: the error of its last failed attempt (a broker gone, a step that cannot be built); cleared when a batch goes through again. */
  last_error?: string;
  failed_at?: string;
  /** Present while a running workflow holds its messages (GET /workflows/{id}): the components it waits for. */
  waiting?: {
    reason: 'components_stopped';
    components: string[];
    message: string;
  };
  created_at: string;
  updated_at: string;
};

export type WorkflowList = {
  items: Workflow[];
};

export type Revision = {
  revision: number;
  definition: Record<string, unknown>;
  created_by: string | null;
  created_at: string;
};

export type RevisionList = {
  items: Revision[];
};

export type Diff = {
  workflow: string;
  revision: number;
  against: number;
  changes: {
    path: string;
    op: 'added' | 'removed' | 'changed';
    from?: unknown;
    to?: unknown;
  }[];
  text: string[];
};

export type Run = {
  id: string | null;
  workflow: string;
  revision: number;
  message_id: string;
  status: RunStatus;
  attempts: number;
  error: string | null;
  outputs: unknown[];
  replay_of: string | null;
  started_at: string;
  updated_at: string;
};

export type RunList = {
  items: Run[];
};

export type IdParams = {
  id: string;
};

export type RevisionParams = {
  id: string;
  revision: number;
};

export type RunParams = {
  id: string;
  run: string;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  listWorkflows: {
    params: Record<string, never>;
    query: {
      state?: State;
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
  createWorkflow: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      id?: string;
      name: string;
      description?: string;
      input: Input;
      steps?: Step[];
      sinks: Step[];
      on_error?: ErrorPolicy;
      /** Keep a loop where the outputs flow back into the input stream. */
      allow_cycles?: boolean;
      /** Messages per transaction (default 100). */
      batch_size?: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      idempotency_key?: string;
    };
    tenant: true;
    authenticated: true;
  };
  getWorkflow: {
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
  replaceWorkflow: {
    params: {
      id: string;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      name: string;
      description?: string;
      input: Input;
      steps?: Step[];
      sinks: Step[];
      on_error?: ErrorPolicy;
      /** Keep a loop where the outputs flow back into the input stream. */
      allow_cycles?: boolean;
      /** Messages per transaction (default 100). */
      batch_size?: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  patchWorkflow: {
    params: {
      id: string;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      name?: string;
      description?: string;
      input?: Input;
      steps?: Step[];
      sinks?: Step[];
      on_error?: ErrorPolicy;
      /** Keep a loop where the outputs flow back into the input stream. */
      allow_cycles?: boolean;
      /** Messages per transaction (default 100). */
      batch_size?: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  deleteWorkflow: {
    params: {
      id: string;
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
  listWorkflowRevisions: {
    params: {
      id: string;
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
  diffWorkflowRevisions: {
    params: {
      id: string;
      revision: number;
    };
    query: {
      against?: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  deployWorkflow: {
    params: {
      id: string;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      revision?: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      request_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  pauseWorkflow: {
    params: {
      id: string;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      reason?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  resumeWorkflow: {
    params: {
      id: string;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      reason?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  listWorkflowRuns: {
    params: {
      id: string;
    };
    query: {
      status?: RunStatus;
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
  getWorkflowRun: {
    params: {
      id: string;
      run: string;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  replayWorkflowRun: {
    params: {
      id: string;
      run: string;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      revision?: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      request_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
};
