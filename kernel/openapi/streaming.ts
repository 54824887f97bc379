import { rewriteRefs } from '../manifest/compile.js';
import { TICKET_TTL_SECONDS } from '../realtime/tickets.js';
import { CLOSE_CREDENTIAL_REVOKED, CLOSE_GOING_AWAY, CLOSE_INTERNAL_ERROR } from '../realtime/sockets.js';
import type { CompiledRoute } from '../types.js';

const CLOSE_CODES: Record<string, string> = {
  [CLOSE_GOING_AWAY]: 'the server is shutting down; reconnect with a new ticket',
  1009: 'a message was larger than the server accepts',
  [CLOSE_INTERNAL_ERROR]: 'the server failed',
  [CLOSE_CREDENTIAL_REVOKED]: 'the credential the ticket was minted with was revoked or expired',
};

/**
 * OpenAPI has no words for a WebSocket, so an upgrade route is its GET answering 101 with an
 * `x-websocket` extension saying how to open it (the ticket, its binding, the close codes). An
 * event-stream route answers `text/event-stream`; the schema of each event's JSON `data` is the
 * media type's `x-event-data`.
 */
export function describeStreaming(route: CompiledRoute, op: Record<string, unknown>, ref: (r: string) => string): void {
  const { decl } = route;
  const responses = op.responses as Record<string, unknown>;
  if (decl.upgrade === 'websocket') {
    responses['101'] = {
      description: 'Switching Protocols: the connection is a WebSocket from here on (see x-websocket).',
    };
    for (const parameter of op.parameters as Array<Record<string, unknown>>)
      if (parameter.in === 'query' && parameter.name === 'ticket') parameter.required = true;
    op['x-websocket'] = {
      ticket: {
        in: 'query',
        name: 'ticket',
        channel: decl.ticket?.channel,
        ...(decl.ticket?.resource_param ? { resource_parameter: decl.ticket.resource_param } : {}),
        ...(decl.ticket?.minted_by ? { minted_by: decl.ticket.minted_by } : {}),
        ttl_seconds: TICKET_TTL_SECONDS,
        single_use: true,
        bound_to: ['subject', 'tenant', 'resource', 'channel'],
      },
      origin:
        'Browser origins must be allowed by the deployment (http.websocket.allowed_origins); a request without Origin is not a browser and is allowed.',
      close_codes: CLOSE_CODES,
    };
  }
  if (decl.stream === 'sse') {
    const success = responses[String(decl.response.status)] as Record<string, unknown>;
    // A GET stream's response schema is the data of each event; a POST that streams (a turn of
    // work reported as it goes) answers that schema as JSON when asked for application/json.
    const streamed = decl.method === 'GET';
    const data = streamed && route.schemas.response ? { 'x-event-data': rewriteRefs(route.schemas.response, ref) } : {};
    const json =
      !streamed && route.schemas.response
        ? { 'application/json': { schema: rewriteRefs(route.schemas.response, ref) } }
        : {};
    success.content = {
      ...json,
      'text/event-stream': {
        schema: {
          type: 'string',
          description:
            'Server-sent events (id, event, data); data is JSON. Comment lines are heartbeats. An `error` event in the error shape ends a stream that failed.',
        },
        ...data,
      },
    };
  }
}
