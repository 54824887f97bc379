// Generated from manifests/studio.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.studio`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** Largest file (UTF-8 bytes); 512 KiB. */
  max_file_bytes: number;
  /** Most files a workspace holds. */
  max_files: number;
  /** Most bytes of all a workspace's files together; 4 MiB. */
  max_workspace_bytes: number;
  /** Most tests/*.json cases one test run executes. */
  max_test_cases: number;
  /** Editing a file together (the collaboration WebSocket). */
  collab: {
    /** A collaborative document with unsaved edits is saved as a new file revision after this long without an edit (0 edits lost: every edit is persisted on arrival; this only decides when a revision is made). */
    idle_save_ms: number;
    /** Stored Yjs updates of one document merged into one (Y.mergeUpdates) once this many have piled up. */
    compact_after: number;
    /** How long an instance keeps a document in memory after its last client left. */
    linger_ms: number;
  };
};

export type Id = string;

/** A relative, /-separated path: no leading /, no empty, . or .. segment, no backslash or control character; at most 256 characters. */
export type Path = string;

/** File contents (text) by path. */
export type FileMap = Record<string, string>;

export type Workspace = {
  id: Id;
  tenant_id: string;
  name: string;
  description: string;
  /** The files' current revision; GET/PUT .../files carry it as the ETag. */
  revision: number;
  file_count: number;
  /** UTF-8 bytes of all files of the current revision. */
  bytes: number;
  created_at: string;
  updated_at: string;
};

export type WorkspaceList = {
  items: Workspace[];
};

export type WorkspaceCreate = {
  id?: Id;
  name: string;
  description?: string;
  /** The files of revision 1 (none by default). */
  files?: FileMap;
};

export type WorkspacePatch = {
  name?: string;
  description?: string;
};

export type IdParams = {
  id: Id;
};

export type Files = {
  workspace_id: Id;
  revision: number;
  files: FileMap;
};

export type FilesPut = {
  /** Files to create or replace; files not named keep their content. */
  files: FileMap;
  /** Paths to remove (each must exist). */
  delete?: string[];
};

export type Revision = {
  revision: number;
  file_count: number;
  bytes: number;
  /** api: a create or PUT .../files; collab: a save of the collaborative document. */
  source: 'api' | 'collab';
  /** Paths created or changed by this revision. */
  changed: string[];
  deleted: string[];
  created_by: string | null;
  created_at: string;
};

export type RevisionList = {
  items: Revision[];
};

/** What the script sees as `input`: at most one of value (sent as its JSON text), body_text or body_base64 (bytes) becomes input.body. */
export type RunInput = {
  /** Any JSON value; input.body is its JSON text (service.json.decode(input.body) gives it back). */
  value?: unknown;
  body_text?: string;
  body_base64?: string;
  headers?: Record<string, string>;
  key?: string | null;
  /** Run only: the id of a tenant codec that decodes body_text (as UTF-8) or body_base64; the script sees the decoded value as JSON text, like value. Needs the codecs and streams plugins (501 otherwise). */
  codec?: string;
};

export type RunRequest = {
  /** The module to run; main.js by default. */
  entry?: Path;
  input?: RunInput;
};

export type RunError = {
  message: string;
  line?: number;
  file?: string;
  limit?: 'deadline' | 'memory' | 'stack' | 'output' | 'pushes';
};

export type RunResult = {
  /** false when the script threw or hit a limit (see error); never a 5xx. */
  ok: boolean;
  /** What the script assigned to `result` (null when unset or on error). */
  result: unknown;
  /** Values given to service.route.push, in order. */
  pushed: unknown[];
  logs: string[];
  duration_ms: number;
  error?: RunError;
  /** The files revision that ran. */
  revision?: number;
};

export type TestRequest = {
  /** The module each case runs; main.js by default (a case file may name its own `entry`). */
  entry?: Path;
};

export type TestCase = {
  /** The case file's name under tests/, without .json. */
  name: string;
  ok: boolean;
  /** The case's expect: {result?, pushed?}. */
  expected: unknown;
  /** What the run gave: {result, pushed} (null when the case could not run). */
  actual: unknown;
  error?: RunError;
  logs?: string[];
  duration_ms?: number;
};

export type TestReport = {
  passed: number;
  failed: number;
  revision?: number;
  cases: TestCase[];
};

export type TicketRequest = {
  workspace_id: Id;
  /** Which socket the ticket opens: collab (GET /studio/collab/ws) or terminal (GET /studio/terminal/ws). */
  channel: 'collab' | 'terminal';
};

export type Ticket = {
  ticket: string;
  expires_at: string;
};

export type SocketQuery = {
  /** Optional: when given it must be the workspace the ticket was minted for. */
  workspace_id?: Id;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  listWorkspaces: {
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
  createWorkspace: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      id?: Id;
      name: string;
      description?: string;
      /** The files of revision 1 (none by default). */
      files?: FileMap;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      idempotency_key?: string;
    };
    tenant: true;
    authenticated: true;
  };
  getWorkspace: {
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
  updateWorkspace: {
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
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  deleteWorkspace: {
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
  getWorkspaceFiles: {
    params: {
      id: Id;
    };
    query: {
      /** An earlier revision (404 when it does not exist). */
      revision?: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  putWorkspaceFiles: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      /** Files to create or replace; files not named keep their content. */
      files: FileMap;
      /** Paths to remove (each must exist). */
      delete?: string[];
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  listWorkspaceRevisions: {
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
  runWorkspace: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      /** The module to run; main.js by default. */
      entry?: Path;
      input?: RunInput;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  testWorkspace: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      /** The module each case runs; main.js by default (a case file may name its own `entry`). */
      entry?: Path;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  mintStudioTicket: {
    params: Record<string, never>;
    query: Record<string, never>;
    body: {
      workspace_id: Id;
      /** Which socket the ticket opens: collab (GET /studio/collab/ws) or terminal (GET /studio/terminal/ws). */
      channel: 'collab' | 'terminal';
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  openCollabSocket: {
    params: Record<string, never>;
    query: {
      /** Optional: when given it must be the workspace the ticket was minted for. */
      workspace_id?: Id;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** One-time ticket (30 s) that opens this WebSocket. */
      ticket?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  openTerminalSocket: {
    params: Record<string, never>;
    query: {
      /** Optional: when given it must be the workspace the ticket was minted for. */
      workspace_id?: Id;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** One-time ticket (30 s) that opens this WebSocket. */
      ticket?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
};
