// Generated from manifests/migration.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

export type Id = string;

export type BundleItem = {
  id: string;
  content: Record<string, unknown>;
};

export type Bundle = {
  format: string;
  source_tenant_id: string;
  exported_at: string;
  resources: Record<string, BundleItem[]>;
  /** sha256 of the canonical JSON of resources. */
  hash: string;
};

export type Change = {
  kind: string;
  id: string;
};

export type GateCheck = {
  check: string;
  ok: boolean;
  detail: string;
  /** What the target lacks, by name: secret placeholders to send with the apply (secrets), variables to set on the target (PUT /variables/{name}). */
  missing?: string[];
};

export type Plan = {
  id: string;
  target_tenant_id: string;
  bundle_hash: string;
  diff: {
    create: Change[];
    update: Change[];
    delete: Change[];
  };
  gate: GateCheck[];
  created_at: string;
  applied_at: string | null;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  exportBundle: {
    params: Record<string, never>;
    query: Record<string, never>;
    body: {
      include?: string[];
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  createPlan: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      bundle: Bundle;
      target_tenant_id: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  getPlan: {
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
  applyPlan: {
    params: {
      id: string;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      request_id: string;
      allow_destructive: boolean;
      /** Values for the bundle's secret placeholders the target lacks (or should replace), by placeholder name (<component>:/<field>, as the plan's secrets_present names them); sealed into the target in the apply's transaction, never stored in the plan nor the audit trail. */
      secrets?: Record<string, string | number | boolean | Record<string, unknown> | unknown[]>;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
};
