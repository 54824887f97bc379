// Generated from manifests/dashboard.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

export type Dashboard = {
  window: '5m' | '1h' | '24h';
  since: string;
  until: string;
  /** One entry per section: components {by_state, total}; workflows [{workflow, messages_in, messages_out, errors, error_rate, p95_ms, dead_letters, lag, oldest_unacked_seconds}]; alerts {firing, pending, items}; recent_audit [...]; bpmn and others when their plugins contribute them. */
  sections: Record<string, unknown>;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  getDashboard: {
    params: Record<string, never>;
    query: {
      window: '5m' | '1h' | '24h';
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    body: unknown;
    tenant: true;
    authenticated: true;
  };
};
