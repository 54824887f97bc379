// Generated from manifests/alerts.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.alerts`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** How often the alerts.evaluate job evaluates every rule (on one instance at a time). */
  evaluation_interval_ms: number;
  /** Let webhooks reach this machine (127.0.0.0/8, ::1, localhost): on in the local profile, for trying alerts against a receiver on the same computer; off in production unless set. */
  allow_loopback_webhooks: boolean;
  /** Let webhooks reach loopback and private addresses (off: such targets are refused, like the http.request sink's). */
  allow_private_webhooks: boolean;
  /** How long one webhook post may take. */
  webhook_timeout_ms: number;
  /** Posts of one notification before it is given up. */
  max_attempts: number;
  /** This control plane's public URL, for externalURL and generatorURL in notifications. */
  external_url: string;
};

export type Id = string;

export type Labels = Record<string, string>;

/** Narrows the signal (which workflow, stream, consumer…); the keys the signal takes are listed by GET /alert-signals, any other is a 400. */
export type Selector = Record<string, string>;

export type Notify = {
  /** Receives Alertmanager webhook (v4) bodies; loopback and private addresses are refused unless allowed in settings. */
  webhook_url?: string;
  /** A sink component of the tenant: its deliver() gets one message per notification, the Alertmanager body as its value. */
  component?: string;
}[];

export type RuleCreate = {
  id?: Id;
  name: string;
  signal: string;
  selector?: Selector;
  op: '>' | '>=' | '<' | '<=' | '==' | '!=';
  threshold: number;
  /** How long the condition must hold before the alert fires (pending until then). */
  for_seconds: number;
  severity: 'info' | 'warning' | 'critical';
  labels?: Labels;
  annotations?: Labels;
  notify?: Notify;
};

export type RuleReplace = {
  name: string;
  signal: string;
  selector?: Selector;
  op: '>' | '>=' | '<' | '<=' | '==' | '!=';
  threshold: number;
  /** How long the condition must hold before the alert fires (pending until then). */
  for_seconds: number;
  severity: 'info' | 'warning' | 'critical';
  labels?: Labels;
  annotations?: Labels;
  notify?: Notify;
};

export type Rule = {
  id: Id;
  tenant_id: string;
  name: string;
  signal: string;
  selector: Record<string, unknown>;
  op: string;
  threshold: number;
  for_seconds: number;
  severity: string;
  labels: Record<string, unknown>;
  annotations: Record<string, unknown>;
  notify: unknown[];
  revision: number;
  created_at: string;
  updated_at: string;
};

export type RuleList = {
  items: Rule[];
};

export type Alert = {
  id: string;
  rule_id: string;
  state: 'pending' | 'firing' | 'resolved';
  labels: Record<string, unknown>;
  annotations: Record<string, unknown>;
  /** The signal's value when last evaluated. */
  value: number;
  /** When the condition began to hold (pending since). */
  started_at: string;
  fired_at: string | null;
  resolved_at: string | null;
  acked_at: string | null;
  acked_by: string | null;
  /** A silence matched it when it fired: no notification was sent. */
  silenced: boolean;
};

export type AlertList = {
  items: Alert[];
};

export type Silence = {
  id: string;
  matchers: unknown[];
  starts_at: string;
  ends_at: string;
  comment: string;
  created_by: string | null;
  created_at: string;
};

export type SilenceList = {
  items: Silence[];
};

export type SignalList = {
  items: {
    name: string;
    description: string;
    selector: Record<string, unknown>;
  }[];
};

export type IdParams = {
  id: Id;
};

export type AlertParams = {
  id: string;
};

export type SilenceParams = {
  id: string;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  listAlertSignals: {
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
    tenant: false;
    authenticated: true;
  };
  listAlertRules: {
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
  createAlertRule: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      id?: Id;
      name: string;
      signal: string;
      selector?: Selector;
      op: '>' | '>=' | '<' | '<=' | '==' | '!=';
      threshold: number;
      /** How long the condition must hold before the alert fires (pending until then). */
      for_seconds: number;
      severity: 'info' | 'warning' | 'critical';
      labels?: Labels;
      annotations?: Labels;
      notify?: Notify;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      idempotency_key?: string;
    };
    tenant: true;
    authenticated: true;
  };
  getAlertRule: {
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
  replaceAlertRule: {
    params: {
      id: Id;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      name: string;
      signal: string;
      selector?: Selector;
      op: '>' | '>=' | '<' | '<=' | '==' | '!=';
      threshold: number;
      /** How long the condition must hold before the alert fires (pending until then). */
      for_seconds: number;
      severity: 'info' | 'warning' | 'critical';
      labels?: Labels;
      annotations?: Labels;
      notify?: Notify;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  deleteAlertRule: {
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
  listAlerts: {
    params: Record<string, never>;
    query: {
      state?: 'pending' | 'firing' | 'resolved';
      rule?: Id;
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
  ackAlert: {
    params: {
      id: string;
    };
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
  createSilence: {
    params: Record<string, never>;
    query: {
      /** Run every check and the change in a transaction that is rolled back. */
      dry_run?: boolean;
    };
    body: {
      matchers: {
        name: string;
        value: string;
      }[];
      starts_at?: string;
      ends_at: string;
      comment?: string;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
      /** Reusing the key retries the same intent. */
      idempotency_key?: string;
    };
    tenant: true;
    authenticated: true;
  };
  listSilences: {
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
  expireSilence: {
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
};
