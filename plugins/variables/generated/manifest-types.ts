// Generated from manifests/variables.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

export type Name = string;

export type NameParams = {
  name: Name;
};

export type Variable = {
  name: Name;
  value: string;
  description: string;
  created_at: string;
  updated_at: string;
};

export type VariableList = {
  items: Variable[];
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  listVariables: {
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
  getVariable: {
    params: {
      name: Name;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
  putVariable: {
    params: {
      name: Name;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      value: string;
      description?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  deleteVariable: {
    params: {
      name: Name;
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
};
