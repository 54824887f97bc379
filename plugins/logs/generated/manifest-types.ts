// Generated from manifests/logs.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

export type Level = 'debug' | 'info' | 'warn' | 'error';

export type LogRecord = {
  seq: number;
  time: string;
  tenant_id: string;
  level: Level;
  /** The plugin or component that wrote the record. */
  source: string;
  message: string;
  fields: Record<string, unknown>;
};

export type LogList = {
  items: LogRecord[];
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  listLogs: {
    params: Record<string, never>;
    query: {
      /** Minimum level. */
      level?: Level;
      source?: string;
      since?: string;
      until?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Page size; default 200, larger values are clamped to 1000. */
      limit?: number;
      /** Opaque cursor from the previous page. */
      cursor?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
};
