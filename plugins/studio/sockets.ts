import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { ApiError } from '../../kernel/errors.js';
import { operationHandlers, type AuditTrail, type TenantCall } from '../../kernel/plugin/api.js';
import type { Clock, Handler, Principal } from '../../kernel/types.js';
import type { Sandbox } from '../../sandbox/types.js';
import type { LazyCollab } from './collab/lazy.js';
import type { FileCache } from './file-cache.js';
import type { Operations } from './generated/manifest-types.js';
import { WorkspaceStore } from './store.js';
import { terminalSession } from './terminal/session.js';

export const WRITE = 'studio:write';

/** Whether the socket's principal (as it is at the upgrade) may edit and run: studio:write and not a read-only token. */
export function canWrite(principal: Principal | undefined): boolean {
  return Boolean(principal?.permissions.has(WRITE) && !principal.readOnly);
}

/**
 * The workspace a socket serves: the ticket's. A `workspace_id` in the query must name the same
 * one (a ticket minted for another workspace is refused, like one for another channel), and the
 * workspace must still exist.
 */
async function workspaceOf(call: TenantCall): Promise<string> {
  const bound = call.resourceId as string;
  const asked = call.query.workspace_id;
  if (asked !== undefined && asked !== bound)
    throw new ApiError('invalid_credentials', 'The ticket was minted for another workspace.');
  if (!(await new WorkspaceStore(call.db).head(call.tenantId, bound)))
    throw new ApiError('not_found', `No workspace "${bound}".`);
  return bound;
}

export function socketHandlers(input: {
  db: Knex;
  clock: Clock;
  logger: Logger;
  audit: AuditTrail;
  sandbox: Sandbox;
  cache: FileCache;
  collab: LazyCollab;
  maxTestCases: number;
}): Record<string, Handler> {
  const { db, clock, logger, audit, sandbox, cache, collab } = input;

  return operationHandlers<Operations>({
    async openCollabSocket(call) {
      const workspaceId = await workspaceOf(call);
      const principal = call.principal;
      const who = { tenantId: call.tenantId, workspaceId, principal, canWrite: canWrite(principal) };
      // Loaded before the upgrade: the socket's first messages find the service listening.
      const service = await collab.load();
      return { status: 101, websocket: (socket) => service.join(socket, who) };
    },

    async openTerminalSocket(call) {
      const workspaceId = await workspaceOf(call);
      const principal = call.principal;
      const tenantId = call.tenantId;
      async function recordRun(command: 'run' | 'test' | 'expression', ok: boolean): Promise<void> {
        if (!audit.enabled) return;
        try {
          await audit.write(db, {
            tenantId,
            operation: call.route.decl.operation,
            method: 'GET',
            path: call.path,
            resourceId: workspaceId,
            status: 200,
            outcome: 'success',
            errorCode: null,
            requestId: randomUUID(),
            idempotencyKey: null,
            principal,
            attribution: call.attribution,
            fields: { command },
            detail: { terminal: command, ok, socket_request_id: call.requestId },
            severity: 'info',
            transport: call.transport,
            at: clock.now(),
          });
        } catch (err) {
          logger.warn({ err, workspace: workspaceId }, 'terminal run could not be audited');
        }
      }
      const session = terminalSession(
        { db, sandbox, cache, logger, maxTestCases: input.maxTestCases, recordRun },
        { tenantId, workspaceId, canRun: canWrite(principal) },
      );
      return { status: 101, websocket: session };
    },
  });
}
