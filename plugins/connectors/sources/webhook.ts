import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../../../kernel/errors.js';
import { operationHandlers } from '../../../kernel/plugin/api.js';
import type { Call, Handler } from '../../../kernel/types.js';
import type { ComponentDirectory, ComponentType } from '../../components/contract.js';
import type { Operations } from '../generated/manifest-types.js';

export const WEBHOOK_TYPE = 'webhook';

/** A hook's public id: `<tenant>.<component>` (neither may hold a dot), so one route serves every tenant. */
export const hookPath = (tenantId: string, componentId: string) => `/hooks/${tenantId}.${componentId}`;

export const webhookType: ComponentType = {
  name: WEBHOOK_TYPE,
  kind: 'source',
  summary: 'Receives HTTP POSTs at /hooks/{tenant}.{component} and appends each body to the stream (202 once durable)',
  config_schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      secret: {
        type: 'string',
        minLength: 16,
        maxLength: 256,
        'x-secret': true,
        'x-generated': true,
        description:
          'Sent as X-Webhook-Secret (or Authorization: Bearer), or the key of the X-Signature-256 HMAC. Generated and shown once when left out.',
      },
    },
  },
  // Receiving happens in the route on every instance; the running source only marks that it may.
  create: () => ({ start: async () => undefined, stop: async () => undefined }),
  endpoint: ({ tenantId, componentId }) => hookPath(tenantId, componentId),
};

function header(call: Call, name: string): string | undefined {
  const value = call.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Whether the request proves it knows the hook's secret: the secret itself (`X-Webhook-Secret`
 * or `Authorization: Bearer`), or `X-Signature-256: sha256=<hex HMAC-SHA256 of the exact body>`
 * (GitHub's `X-Hub-Signature-256` is read the same way).
 */
export function authentic(call: Call, secret: string, body: Buffer): boolean {
  const given = header(call, 'x-webhook-secret') ?? header(call, 'authorization')?.replace(/^Bearer\s+/i, '');
  if (given !== undefined && sameText(given, secret)) return true;
  const signature = header(call, 'x-signature-256') ?? header(call, 'x-hub-signature-256');
  if (signature === undefined) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  return sameText(signature.toLowerCase(), expected);
}

/** POST /hooks/{hook}: public; the hook's own secret is its credential. */
export function webhookHandlers(directory: () => ComponentDirectory | undefined): Record<string, Handler> {
  return operationHandlers<Operations>({
    async receiveWebhook(call) {
      const hook = call.params.hook;
      const dot = hook.indexOf('.');
      const tenantId = hook.slice(0, dot);
      const componentId = hook.slice(dot + 1);
      const found = directory();
      if (!found) throw new ApiError('not_configured', 'Webhooks need the components plugin.');
      const component = await found.find(call.db, tenantId, componentId);
      if (!component || component.type !== WEBHOOK_TYPE) throw new ApiError('not_found', `No webhook "${hook}".`);
      const body = Buffer.isBuffer(call.body) ? call.body : Buffer.alloc(0);
      const secret = component.config.secret;
      if (typeof secret !== 'string' || !authentic(call, secret, body))
        throw new ApiError('invalid_credentials', 'The webhook secret or signature does not match.');
      // Authenticated by the hook's secret: the call acts in (and is audited in) the hook's tenant.
      call.tenantId = tenantId;
      call.resourceId = componentId;
      if (component.state !== 'running')
        throw new ApiError(
          'component_not_running',
          `Webhook "${hook}" is ${component.state}; start the component to receive.`,
        );
      const key = header(call, 'x-message-key') ?? null;
      const dedup = header(call, 'idempotency-key') ?? header(call, 'x-webhook-id');
      const headers: Record<string, string> = { 'x-source': 'webhook' };
      for (const name of ['user-agent', 'x-webhook-id', 'x-github-event']) {
        const value = header(call, name);
        if (value !== undefined) headers[name] = value.slice(0, 500);
      }
      const contentType = header(call, 'content-type') ?? 'application/octet-stream';
      const appended = await found.emit(
        call.db as Knex.Transaction,
        component,
        { key, headers, body, content_type: contentType.split(';')[0]?.trim() ?? contentType },
        dedup !== undefined ? { dedupKey: dedup } : {},
      );
      call.notes.auditDetail = {
        ...(call.notes.auditDetail ?? {}),
        message: appended.id,
        duplicate: appended.duplicate,
      };
      return { status: 202, body: { id: appended.id, duplicate: appended.duplicate } };
    },
  });
}
