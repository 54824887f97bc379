// Generated from manifests/console.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.console`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** Folder of the built app (absolute, or relative to the project root); default plugins/console/app/dist. */
  dist_dir?: string;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  getServiceRoot: {
    params: Record<string, never>;
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: false;
    authenticated: false;
  };
  getConsole: {
    params: Record<string, never>;
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: false;
    authenticated: false;
  };
  getConsoleFile: {
    params: {
      /** The rest of the path after /console/, slashes included. */
      path: string;
    };
    query: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: false;
    authenticated: false;
  };
};
