// Generated from manifests/audit.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.audit`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** How long the sealer waits after a commit to gather a burst of records into one batch. */
  seal_delay_ms: number;
  /** How often one instance sweeps for committed records nobody chained (an instance killed between commit and seal). */
  sweep_interval_seconds: number;
};

export type Hash = string;

export type Outcome = 'success' | 'refused' | 'failed' | 'replayed' | 'dry_run';

export type AuditRecord = {
  id: string;
  /** Position in the tenant's hash chain; null for the moments between the record's commit and its sealing. */
  seq: number | null;
  /** The database transaction that wrote the record, with its effect. With id it orders the trail. */
  txid: number;
  time: string;
  tenant_id: string;
  operation: string;
  method: string;
  path: string;
  resource_id: string | null;
  status: number;
  outcome: Outcome;
  error_code: string | null;
  request_id: string;
  idempotency_key: string | null;
  actor: {
    subject_id: string | null;
    credential_kind: string | null;
    credential_id: string | null;
    actor_type: 'human' | 'service' | 'agent';
    agent_id: string | null;
    actor_id: string | null;
    actor_email: string | null;
  };
  /** Only the body fields the route's manifest names; bodies are never stored whole. */
  fields: Record<string, unknown>;
  detail: Record<string, unknown>;
  severity: 'info' | 'critical';
  transport: 'http' | 'mcp' | 'cli' | 'agent';
  /** Hash of the predecessor in the chain; null until sealed. */
  prev_hash: Hash | null;
  /** SHA-256 over the predecessor's hash, seq and the record; null until sealed. */
  hash: Hash | null;
};

export type AuditList = {
  items: AuditRecord[];
};

export type VerifyReport = {
  tenant_id: string;
  valid: boolean;
  /** Records checked, from the first to the head current when the check began. */
  records: number;
  /** Committed records not chained yet: verification chains what has committed first, so this is 0 unless a transaction still running holds records back. */
  unsealed: number;
  head: {
    seq?: number;
    hash?: Hash;
  } | null;
  first_broken: {
    seq: number;
    id?: string | null;
    problem: 'sequence' | 'unsealed' | 'prev_hash' | 'hash' | 'head';
    expected: string;
    found: string;
  } | null;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  listAudit: {
    params: Record<string, never>;
    query: {
      /** Subject id, actor id, agent id or actor e-mail. */
      actor?: string;
      operation?: string;
      /** An HTTP status or an outcome. */
      status?: string;
      resource?: string;
      /** Records at or after this time (RFC 3339). */
      since?: string;
      /** Records before this time (RFC 3339). */
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
  verifyAudit: {
    params: Record<string, never>;
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  listAccountAudit: {
    params: Record<string, never>;
    query: {
      /** Subject id, actor id, agent id or actor e-mail. */
      actor?: string;
      operation?: string;
      /** An HTTP status or an outcome. */
      status?: string;
      resource?: string;
      /** Records at or after this time (RFC 3339). */
      since?: string;
      /** Records before this time (RFC 3339). */
      until?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Page size; default 100, larger values are clamped to 1000. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: false;
    authenticated: true;
  };
  verifyAccountAudit: {
    params: Record<string, never>;
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: false;
    authenticated: true;
  };
};
