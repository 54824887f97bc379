import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../../../kernel/errors.js';
import type { AuditTrail } from '../../../kernel/plugin/api.js';
import type { Clock, Principal } from '../../../kernel/types.js';
import { nextFiles, type FileLimits, type FileMap } from '../files.js';
import { WorkspaceStore } from '../store.js';
import { docFrom, filesOf } from './doc.js';
import { type Room, sameFiles } from './room.js';
import type { CollabStore } from './store.js';

export interface SaveResult {
  revision: number;
  unchanged: boolean;
  by: string | null;
}

export type SaveTrigger = 'message' | 'idle' | 'left' | 'shutdown';

/**
 * Makes a file revision equal to the document as stored (every instance's stored edits, not
 * only this one's room), in one transaction with its audit record and the event that tells the
 * other instances. No revision when the files would not change.
 */
export async function writeRevision(
  o: {
    db: Knex;
    store: CollabStore;
    clock: Clock;
    audit: AuditTrail;
    limits: FileLimits;
    publishSaved: (trx: Knex.Transaction, revision: number, by: string | null) => Promise<unknown>;
  },
  room: Room,
  principal: Principal | null,
  trigger: SaveTrigger,
): Promise<SaveResult> {
  const { tenantId, workspaceId } = room;
  const by = principal?.subjectId ?? null;
  return o.db.transaction(async (trx): Promise<SaveResult> => {
    const workspaces = new WorkspaceStore(trx);
    const current = await workspaces.get(tenantId, workspaceId, { forUpdate: true });
    if (!current) throw new ApiError('not_found', `No workspace "${workspaceId}".`);
    if (!(await o.store.lock(trx, tenantId, workspaceId)))
      throw new ApiError('not_found', `Workspace "${workspaceId}" has no shared document.`);
    const doc = docFrom(await o.store.updates(trx, tenantId, workspaceId));
    const files = filesOf(doc);
    doc.destroy();
    const before = (await workspaces.files(tenantId, workspaceId, current.revision)) ?? {};
    if (sameFiles(before, files)) return { revision: current.revision, unchanged: true, by };
    const written: FileMap = {};
    for (const [path, content] of Object.entries(files)) if (before[path] !== content) written[path] = content;
    const deleted = Object.keys(before).filter((path) => !Object.hasOwn(files, path));
    const next = nextFiles(before, written, deleted, o.limits);
    const saved = await workspaces.appendRevision(
      tenantId,
      current,
      { ...next, source: 'collab', createdBy: by },
      o.clock.now(),
    );
    await o.store.setRevision(trx, tenantId, workspaceId, saved.revision);
    await o.publishSaved(trx, saved.revision, by);
    await audited(o, trx, room, principal, saved.revision, trigger);
    return { revision: saved.revision, unchanged: false, by };
  });
}

/** A save changes the workspace: its audit record commits with the revision. */
async function audited(
  o: { audit: AuditTrail; clock: Clock },
  trx: Knex.Transaction,
  room: Room,
  principal: Principal | null,
  revision: number,
  trigger: string,
): Promise<void> {
  if (!o.audit.enabled) return;
  await o.audit.write(trx, {
    tenantId: room.tenantId,
    operation: 'openCollabSocket',
    method: 'GET',
    path: '/studio/collab/ws',
    resourceId: room.workspaceId,
    status: 200,
    outcome: 'success',
    errorCode: null,
    requestId: randomUUID(),
    idempotencyKey: null,
    principal,
    attribution: { actorType: 'human' },
    fields: { command: 'save', revision },
    detail: { collab_save: trigger },
    severity: 'info',
    transport: 'http',
    at: o.clock.now(),
  });
}
