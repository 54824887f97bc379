// Generated from manifests/bpmn.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.bpmn`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** Activities one advance may start without reaching a wait state; beyond it the instance stops with an incident (a loop without a wait state never hangs a worker). */
  max_steps: number;
  /** Extra attempts of a failing service or script task before it raises an incident. */
  retries: number;
  /** Largest variables object (serialized JSON) a start, task completion, message or signal may carry. */
  max_variables_bytes: number;
  /** How often the bpmn.timers job looks for due timers. */
  timer_interval_ms: number;
  /** Instances with due timers advanced per run of the job. */
  timer_batch: number;
  /** Engines kept in memory between advances; one is reused only while its instance's saved revision is the one it produced. */
  engine_cache: number;
  /** Worker threads that run the engine for definitions without service or script tasks (those run on the main thread); 0 runs every engine on the main thread. Absent: min(2, cores - 1). */
  engine_threads?: number;
  /** Attempts a job (a service, send or business-rule task run by an external worker) gets; a worker's failure with none left raises an incident. */
  job_retries: number;
};

export type Key = string;

/** A JSON object; at most settings.bpmn.max_variables_bytes when serialized. */
export type Variables = Record<string, unknown>;

export type KeyParams = {
  key: Key;
};

export type IdParams = {
  id: Key;
};

export type Definition = {
  key: string;
  tenant_id: string;
  process_id: string;
  version: number;
  name: string | null;
  created_at: string;
  /** false: deployed for viewing (its model lacks isExecutable="true"); a start answers 409. */
  executable?: boolean;
  /** The deployment (one POST) that stored this definition with its sibling processes. */
  deployment?: string | null;
};

export type DefinitionList = {
  items: Definition[];
};

export type Instance = {
  id: string;
  tenant_id: string;
  definition_key: string;
  process_id: string;
  version: number;
  business_key: string | null;
  state: 'active' | 'completed' | 'cancelled' | 'incident';
  variables: Record<string, unknown>;
  replay_of: string | null;
  replay_from?: string | null;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
  /** Where the instance waits now. */
  activities?: Record<string, unknown>[];
  tasks?: Task[];
  history?: {
    activity_id?: string;
    activity_type?: string;
    name?: string | null;
    started_at?: string;
    ended_at?: string | null;
    outcome?: string;
  }[];
  incidents?: Incident[];
};

export type InstanceList = {
  items: Instance[];
  /** Present while more instances follow; send it back as ?cursor=. */
  next_cursor?: string;
};

export type InstanceCreate = {
  process_id?: string;
  key?: Key;
  version?: number;
  variables?: Variables;
  business_key?: string;
  request_id?: string;
};

export type Replay = {
  from_activity?: string;
  request_id?: string;
};

export type Action = {
  request_id?: string;
};

export type Task = {
  id: string;
  tenant_id?: string;
  instance_id: string;
  activity_id: string;
  name: string | null;
  state: 'open' | 'completed' | 'cancelled';
  assignee: string | null;
  created_at: string;
  completed_at?: string | null;
  candidate_users?: string[];
  candidate_groups?: string[];
  due_at?: string | null;
  /** GET /bpmn/tasks/{id}: the model's camunda:formData as a JSON Schema of the variables the completion is expected to carry. */
  form?: Record<string, unknown>;
  process_id?: string | null;
  business_key?: string | null;
};

export type TaskList = {
  items: Task[];
};

export type TaskComplete = {
  variables?: Variables;
  request_id?: string;
};

export type Message = {
  name: string;
  correlation_key?: string;
  variables?: Variables;
  request_id?: string;
};

export type Signal = {
  name: string;
  variables?: Variables;
  request_id?: string;
};

export type Correlated = {
  correlated: number;
  instances: string[];
};

export type Incident = {
  id: string;
  tenant_id?: string;
  instance_id: string;
  activity_id: string | null;
  message: string;
  state: 'open' | 'resolved';
  created_at: string;
  resolved_at?: string | null;
};

export type IncidentList = {
  items: Incident[];
};

export type Job = {
  id: string;
  tenant_id?: string;
  type: string;
  state: 'open' | 'completed' | 'failed' | 'cancelled';
  instance_id: string;
  activity_id: string;
  retries: number;
  worker_id: string | null;
  lock_expires_at: string | null;
  due_at?: string;
  error_message?: string | null;
  created_at: string;
  ended_at?: string | null;
  /** In a fetch's answer. */
  process_id?: string | null;
  /** In a fetch's answer. */
  business_key?: string | null;
  /** In a fetch's answer: the instance's variables. */
  variables?: Record<string, unknown>;
  instance?: Instance;
};

export type JobList = {
  items: Job[];
};

export type JobFetch = {
  /** The worker's own id: a job's lock is this worker's. */
  worker_id: string;
  /** Job types (Zeebe task types, Camunda topics) the worker takes. */
  types: string[];
  max_jobs: number;
  /** How long the jobs stay this worker's unless completed, failed or extended. */
  lock_duration_ms: number;
  /** Long polling: how long to wait for a job when none is due now. */
  wait_ms: number;
};

export type JobComplete = {
  /** The worker's own id: a job's lock is this worker's. */
  worker_id: string;
  variables?: Variables;
  request_id?: string;
};

export type JobFail = {
  /** The worker's own id: a job's lock is this worker's. */
  worker_id: string;
  message: string;
  /** Retries left after this failure (default: the job's less one); 0 raises an incident. */
  retries?: number;
  /** The job is fetchable again after this long. */
  retry_backoff_ms: number;
  request_id?: string;
};

export type JobError = {
  /** The worker's own id: a job's lock is this worker's. */
  worker_id: string;
  /** Matched against the errorCode of the error an error boundary event of the task catches. */
  error_code: string;
  message?: string;
  variables?: Variables;
  request_id?: string;
};

export type JobExtendLock = {
  /** The worker's own id: a job's lock is this worker's. */
  worker_id: string;
  /** The lock now ends this long from now. */
  lock_duration_ms: number;
};

export type IncidentResolve = {
  variables?: Variables;
  /** Attempts the failed job gets again. */
  retries: number;
  request_id?: string;
};

export type VariablesSet = {
  variables: Variables;
  request_id?: string;
};

export type Deployed = {
  /** Every process of the file, each its own versioned definition. */
  definitions: Definition[];
  /** What the runtime kept in the XML but ignores (other vendors' extensions). */
  warnings: string[];
} & Definition;

export type TaskClaim = {
  assignee: string;
  request_id?: string;
};

export type Migrate = {
  /** The version of the instance's process to move to (default: the latest). */
  version?: number;
  key?: Key;
  request_id?: string;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  deployBpmnDefinition: {
    params: Record<string, never>;
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
  listBpmnDefinitions: {
    params: Record<string, never>;
    query: {
      process_id?: string;
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
  getBpmnDefinition: {
    params: {
      key: Key;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  getBpmnDefinitionXml: {
    params: {
      key: Key;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  startBpmnInstance: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      process_id?: string;
      key?: Key;
      version?: number;
      variables?: Variables;
      business_key?: string;
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  listBpmnInstances: {
    params: Record<string, never>;
    query: {
      state?: 'active' | 'completed' | 'cancelled' | 'incident';
      process_id?: string;
      business_key?: string;
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
  getBpmnInstance: {
    params: {
      id: Key;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  cancelBpmnInstance: {
    params: {
      id: Key;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  migrateBpmnInstance: {
    params: {
      id: Key;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      /** The version of the instance's process to move to (default: the latest). */
      version?: number;
      key?: Key;
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  replayBpmnInstance: {
    params: {
      id: Key;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      from_activity?: string;
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  listBpmnTasks: {
    params: Record<string, never>;
    query: {
      state?: 'open' | 'completed' | 'cancelled';
      assignee?: string;
      instance_id?: Key;
      candidate_group?: string;
      candidate_user?: string;
      process_id?: string;
      business_key?: string;
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
  getBpmnTask: {
    params: {
      id: Key;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  claimBpmnTask: {
    params: {
      id: Key;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      assignee: string;
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  unclaimBpmnTask: {
    params: {
      id: Key;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  completeBpmnTask: {
    params: {
      id: Key;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      variables?: Variables;
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  correlateBpmnMessage: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      name: string;
      correlation_key?: string;
      variables?: Variables;
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  broadcastBpmnSignal: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      name: string;
      variables?: Variables;
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  listBpmnIncidents: {
    params: Record<string, never>;
    query: {
      state?: 'open' | 'resolved';
      instance_id?: Key;
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
  resolveBpmnIncident: {
    params: {
      id: Key;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      variables?: Variables;
      /** Attempts the failed job gets again. */
      retries: number;
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  listBpmnJobs: {
    params: Record<string, never>;
    query: {
      state?: 'open' | 'completed' | 'failed' | 'cancelled';
      type?: string;
      instance_id?: Key;
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
  fetchAndLockBpmnJobs: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      /** The worker's own id: a job's lock is this worker's. */
      worker_id: string;
      /** Job types (Zeebe task types, Camunda topics) the worker takes. */
      types: string[];
      max_jobs: number;
      /** How long the jobs stay this worker's unless completed, failed or extended. */
      lock_duration_ms: number;
      /** Long polling: how long to wait for a job when none is due now. */
      wait_ms: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  completeBpmnJob: {
    params: {
      id: Key;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      /** The worker's own id: a job's lock is this worker's. */
      worker_id: string;
      variables?: Variables;
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  failBpmnJob: {
    params: {
      id: Key;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      /** The worker's own id: a job's lock is this worker's. */
      worker_id: string;
      message: string;
      /** Retries left after this failure (default: the job's less one); 0 raises an incident. */
      retries?: number;
      /** The job is fetchable again after this long. */
      retry_backoff_ms: number;
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  throwBpmnJobError: {
    params: {
      id: Key;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      /** The worker's own id: a job's lock is this worker's. */
      worker_id: string;
      /** Matched against the errorCode of the error an error boundary event of the task catches. */
      error_code: string;
      message?: string;
      variables?: Variables;
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  extendBpmnJobLock: {
    params: {
      id: Key;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      /** The worker's own id: a job's lock is this worker's. */
      worker_id: string;
      /** The lock now ends this long from now. */
      lock_duration_ms: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  setBpmnInstanceVariables: {
    params: {
      id: Key;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      variables: Variables;
      request_id?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
};
