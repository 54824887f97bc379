import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ComponentType } from '../../components/contract.js';
import { payloadOf } from '../payload.js';
import type { ConnectorsSettings } from '../settings.js';
import { resolvePublic } from './address-guard.js';

/**
 * Sends each message to a URL. At-least-once: the message id travels as `Idempotency-Key` (and
 * `X-Message-Id`) so the receiver can drop a repeat. A response other than 2xx, a timeout
 * (`timeout_ms`, at most the plugin's `max_timeout_ms`) or a response larger than
 * `max_response_bytes` fails the delivery. Loopback, private and link-local addresses are refused
 * after resolution unless `settings.connectors.http.allow` names their class.
 */
export function httpRequestType(settings: ConnectorsSettings): ComponentType {
  return {
    name: 'http.request',
    kind: 'sink',
    summary: 'Sends each message to an HTTP(S) URL, carrying the message id as Idempotency-Key',
    config_schema: {
      type: 'object',
      additionalProperties: false,
      required: ['url'],
      properties: {
        url: {
          type: 'string',
          format: 'uri',
          pattern: '^https?://',
          maxLength: 2000,
          description:
            'Where each message is sent; a non-public address only as settings.connectors.http.allow lets it.',
        },
        method: { type: 'string', enum: ['POST', 'PUT', 'PATCH'], default: 'POST' },
        headers: {
          type: 'object',
          maxProperties: 32,
          additionalProperties: { type: 'string', maxLength: 4000 },
          description: 'Extra request headers.',
        },
        authorization: {
          type: 'string',
          maxLength: 4000,
          'x-secret': true,
          description: 'Sent as the Authorization header.',
        },
        timeout_ms: {
          type: 'integer',
          minimum: 100,
          maximum: 600_000,
          description:
            'How long one request may take (default settings.connectors.http.default_timeout_ms, at most its max_timeout_ms).',
        },
      },
    },
    create(config) {
      const url = new URL(config.url as string);
      const timeoutMs = Math.min(
        (config.timeout_ms as number | undefined) ?? settings.http.default_timeout_ms,
        settings.http.max_timeout_ms,
      );
      return {
        async deliver(message, context) {
          const target = await resolvePublic(url.hostname, settings.http.allow);
          const { bytes, contentType } = payloadOf(message);
          const headers: Record<string, string> = {
            'content-type': contentType,
            'content-length': String(bytes.length),
            ...((config.headers as Record<string, string> | undefined) ?? {}),
            'idempotency-key': message.id,
            'x-message-id': message.id,
            ...(config.authorization ? { authorization: config.authorization as string } : {}),
          };
          // Connect to the address just checked, never a second resolution.
          const pinned: LookupFunction = (_host, options, callback) => {
            if ((options as { all?: boolean }).all)
              (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
                { address: target.address, family: target.family },
              ]);
            else callback(null, target.address, target.family);
          };
          const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
          await new Promise<void>((resolve, reject) => {
            const req = send(
              url,
              {
                method: (config.method as string | undefined) ?? 'POST',
                headers,
                lookup: pinned,
                timeout: timeoutMs,
                signal: context.signal,
              },
              (res: IncomingMessage) => {
                let size = 0;
                res.on('data', (chunk: Buffer) => {
                  size += chunk.length;
                  if (size > settings.http.max_response_bytes)
                    res.destroy(new Error(`the response is larger than ${settings.http.max_response_bytes} bytes`));
                });
                res.on('error', reject);
                res.on('end', () => {
                  const status = res.statusCode ?? 0;
                  if (status >= 200 && status < 300) resolve();
                  else reject(new Error(`${url.origin} answered ${status}`));
                });
              },
            );
            req.on('timeout', () => req.destroy(new Error(`no answer from ${url.origin} within ${timeoutMs} ms`)));
            req.on('error', reject);
            req.end(bytes);
          });
        },
      };
    },
  };
}
