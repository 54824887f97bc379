// Generated from manifests/connectors.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.connectors`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** The http.request sink. */
  http: {
    /** Address classes http.request may reach although they are not public (checked after DNS resolution, on every address). None by default. */
    allow: ('loopback' | 'private' | 'link-local')[];
    /** A component's timeout_ms when it sets none. */
    default_timeout_ms: number;
    /** The ceiling of a component's timeout_ms. */
    max_timeout_ms: number;
    /** A larger response fails the delivery. */
    max_response_bytes: number;
  };
  /** How long connecting to a broker (or publishing to one) may take. */
  connect_timeout_ms: number;
};

export type HookParams = {
  /** <tenant>.<component>, as shown once when the webhook component was created. */
  hook: string;
};

export type Received = {
  /** The message appended to the component's stream. */
  id: string;
  /** True when an earlier delivery with the same Idempotency-Key (or X-Webhook-Id) was appended already; nothing new was appended. */
  duplicate: boolean;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  receiveWebhook: {
    params: {
      /** <tenant>.<component>, as shown once when the webhook component was created. */
      hook: string;
    };
    query: Record<string, never>;
    body: unknown;
    tenant: false;
    authenticated: false;
  };
};
