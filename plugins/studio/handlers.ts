import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import {
  afterKey,
  ifMatch,
  operationHandlers,
  pageOf,
  slugify,
  type InUse,
  type TenantCall,
} from '../../kernel/plugin/api.js';
import type { Call, Clock, Handler, TicketService } from '../../kernel/types.js';
import type { Sandbox } from '../../sandbox/types.js';
import type { CodecResolver } from '../streams/contract.js';
import type { FileCache } from './file-cache.js';
import { nextFiles, sortedFiles, type FileMap } from './files.js';
import type { Operations, Settings } from './generated/manifest-types.js';
import { runWorkspace, testWorkspace, type RunInput } from './runner.js';
import { WorkspaceStore, type Workspace } from './store.js';

/** `settings.studio` (generated from manifests/studio.json). */
export type StudioSettings = Settings;

/** What the collaborative documents hear of changes made over the API (in the call's transaction). */
export interface FileChanges {
  filesWritten(
    db: Knex.Transaction | Knex,
    tenantId: string,
    workspaceId: string,
    files: FileMap,
    revision: number,
  ): Promise<void>;
  workspaceDeleted(db: Knex.Transaction | Knex, tenantId: string, workspaceId: string): Promise<void>;
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', `No workspace "${id}".`);
}

/** If-Match against the files' revision (their ETag, which the kernel sends: manifests/studio.json). */
function checkIfMatch(call: Call, workspace: Workspace): void {
  ifMatch(call, workspace.revision, `Workspace "${workspace.id}"`);
}

type Settled<T> = { value: T } | { error: unknown };

/** A promise that never rejects, so one started early and then not awaited raises no unhandled rejection. */
function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

function unsettle<T>(settled: Settled<T>): T {
  if ('error' in settled) throw settled.error;
  return settled.value;
}

export function studioHandlers(input: {
  clock: Clock;
  /** Refuses (409) deleting a workspace that deployed workflows or components use. */
  inUse?: InUse;
  tickets: TicketService;
  sandbox: Sandbox;
  cache: FileCache;
  settings: StudioSettings;
  changes: FileChanges;
  codecs: () => CodecResolver | undefined;
}): Record<string, Handler> {
  const { clock, tickets, sandbox, cache, settings, changes } = input;

  /**
   * `input.codec`: the input's bytes (body_text as UTF-8, or body_base64) decoded by the
   * tenant's codec; the script then sees the decoded value as JSON text, like a `value`.
   */
  async function decoded(
    call: TenantCall,
    given: (RunInput & { codec?: string }) | undefined,
  ): Promise<RunInput | undefined> {
    if (!given || given.codec === undefined) return given;
    const { codec: codecId, ...rest } = given;
    const resolver = input.codecs();
    if (!resolver)
      throw new ApiError('not_configured', "Decoding a run's input with a codec needs the codecs and streams plugins.");
    const codec = await resolver.resolve(call.db, call.tenantId, codecId);
    if (!codec)
      throw new ApiError('validation_error', `No codec "${codecId}".`, {
        details: [{ in: 'body', pointer: '/input/codec', message: 'names no codec of the tenant' }],
      });
    if (rest.value !== undefined || (rest.body_text === undefined) === (rest.body_base64 === undefined)) {
      throw new ApiError('validation_error', 'A codec decodes body_text or body_base64 (exactly one).', {
        details: [{ in: 'body', pointer: '/input', message: 'give body_text or body_base64 with codec' }],
      });
    }
    const bytes =
      rest.body_text !== undefined
        ? Buffer.from(rest.body_text, 'utf8')
        : Buffer.from(rest.body_base64 as string, 'base64');
    const { body_text: _text, body_base64: _base64, ...others } = rest;
    return { ...others, value: codec.decode(new Uint8Array(bytes)) };
  }

  return operationHandlers<Operations>({
    async listWorkspaces(call) {
      const page = pageOf(call);
      const after = afterKey(page);
      return {
        status: 200,
        body: {
          items: await new WorkspaceStore(call.db).list(call.tenantId, {
            fetch: page.fetch,
            ...(after !== undefined ? { afterId: after } : {}),
          }),
        },
      };
    },

    async createWorkspace(call) {
      const body = call.body;
      const id = body.id ?? slugify(body.name);
      if (!id)
        throw new ApiError('validation_error', 'The name yields an empty id; send an id.', {
          details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }],
        });
      call.resourceId = id;
      const first = nextFiles({}, body.files ?? {}, [], settings);
      const fields: { name: string; description?: string } = { name: body.name };
      if (body.description !== undefined) fields.description = body.description;
      const workspace = await new WorkspaceStore(call.db).insert(
        call.tenantId,
        id,
        fields,
        { ...first, source: 'api', createdBy: call.principal?.subjectId ?? null },
        clock.now(),
      );
      return { status: 201, body: workspace, headers: { Location: `/studio/workspaces/${id}` } };
    },

    async getWorkspace(call) {
      const workspace = await new WorkspaceStore(call.db).get(call.tenantId, call.params.id);
      if (!workspace) throw notFound(call.params.id);
      return { status: 200, body: workspace };
    },

    async updateWorkspace(call) {
      const workspace = await new WorkspaceStore(call.db).update(call.tenantId, call.params.id, call.body, clock.now());
      if (!workspace) throw notFound(call.params.id);
      return { status: 200, body: workspace };
    },

    async deleteWorkspace(call) {
      await input.inUse?.(call.db, call.tenantId, 'workspace', call.params.id);
      if (!(await new WorkspaceStore(call.db).remove(call.tenantId, call.params.id))) throw notFound(call.params.id);
      await changes.workspaceDeleted(call.db, call.tenantId, call.params.id);
      return { status: 204 };
    },

    async getWorkspaceFiles(call) {
      const store = new WorkspaceStore(call.db);
      const workspace = await store.get(call.tenantId, call.params.id);
      if (!workspace) throw notFound(call.params.id);
      const revision = call.query.revision ?? workspace.revision;
      const files = await store.files(call.tenantId, workspace.id, revision);
      if (!files)
        throw new ApiError(
          'not_found',
          `Workspace "${workspace.id}" has no revision ${revision} (it is at ${workspace.revision}).`,
        );
      return { status: 200, body: { workspace_id: workspace.id, revision, files } };
    },

    async putWorkspaceFiles(call) {
      const store = new WorkspaceStore(call.db);
      const current = await store.get(call.tenantId, call.params.id, { forUpdate: true });
      if (!current) throw notFound(call.params.id);
      checkIfMatch(call, current);
      const body = call.body;
      const currentFiles = (await store.files(call.tenantId, current.id, current.revision)) ?? {};
      const next = nextFiles(currentFiles, body.files, body.delete ?? [], settings);
      const workspace = await store.appendRevision(
        call.tenantId,
        current,
        { ...next, source: 'api', createdBy: call.principal?.subjectId ?? null },
        clock.now(),
      );
      await changes.filesWritten(call.db, call.tenantId, workspace.id, next.files, workspace.revision);
      return {
        status: 200,
        body: { workspace_id: workspace.id, revision: workspace.revision, files: sortedFiles(next.files) },
      };
    },

    async listWorkspaceRevisions(call) {
      const store = new WorkspaceStore(call.db);
      if (!(await store.head(call.tenantId, call.params.id))) throw notFound(call.params.id);
      const page = pageOf(call);
      const after = page.after ? Number(page.after[0]) : undefined;
      return {
        status: 200,
        body: {
          items: await store.revisions(call.tenantId, call.params.id, {
            fetch: page.fetch,
            ...(after !== undefined ? { afterRevision: after } : {}),
          }),
        },
      };
    },

    async runWorkspace(call) {
      const body = call.body;
      const runInput = await decoded(call, body.input);
      const request = {
        ...(body.entry !== undefined ? { entry: body.entry } : {}),
        ...(runInput !== undefined ? { input: runInput } : {}),
      };
      // A run has no effect outside its answer, so it may start on the revision this instance
      // last saw current while the database says which revision is current: the two overlap
      // instead of adding up. The answer is used only when that revision is confirmed current;
      // otherwise (a new revision, another workspace under the id) the run is made again on the
      // current files, and a workspace gone is a 404 whatever the guess gave.
      const guess = cache.guess(call.tenantId, call.params.id);
      const early = guess && settle(runWorkspace(sandbox, call.tenantId, guess.files, request));
      const { revision, files, key } = await cache.current(call.db, call.tenantId, call.params.id);
      const run =
        early && guess.key === key ? unsettle(await early) : await runWorkspace(sandbox, call.tenantId, files, request);
      return { status: 200, body: { ...run, revision } };
    },

    async testWorkspace(call) {
      const { revision, files } = await cache.current(call.db, call.tenantId, call.params.id);
      const body = call.body;
      const report = await testWorkspace(sandbox, call.tenantId, files, {
        ...(body.entry !== undefined ? { entry: body.entry } : {}),
        maxCases: settings.max_test_cases,
      });
      return { status: 200, body: { ...report, revision } };
    },

    async mintStudioTicket(call) {
      const body = call.body;
      call.resourceId = body.workspace_id;
      if (!(await new WorkspaceStore(call.db).head(call.tenantId, body.workspace_id)))
        throw notFound(body.workspace_id);
      return { status: 201, body: await tickets.mint(call, { resource: body.workspace_id, channel: body.channel }) };
    },
  });
}
