import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import {
  afterKey,
  operationHandlers,
  pageOf,
  slugify,
  type Events,
  type InUse,
  type TenantCall,
} from '../../kernel/plugin/api.js';
import type { Clock, Handler, Reply } from '../../kernel/types.js';
import type { ComponentPatch, Operations } from './generated/manifest-types.js';
import type { CallOf } from '../../kernel/plugin/api.js';
import type { ComponentsService } from './service.js';
import { insertComponentIn } from './combined-insert-store.js';
import { ComponentStore, toComponent, type ComponentRow, type ComponentState, type NewComponent } from './store.js';

/** Says "this component changed": the instance running it re-reads it (stop, restart, new config). */
export const CHANGED_TOPIC = 'components.changed';

/** A call on one component (`/components/{id}`). */
type ComponentCall = TenantCall & { params: { id: string } };
type CreateCall = CallOf<Operations['createComponent']>;
const notFound = (id: string) => new ApiError('not_found', `No component "${id}".`);

export function componentHandlers(
  clock: Clock,
  service: ComponentsService,
  events: Events,
  inUse?: InUse,
): Record<string, Handler> {
  const changed = (call: TenantCall, id: string) =>
    events.publish(CHANGED_TOPIC, { tenant_id: call.tenantId, id }, { db: call.db });

  /** Sources run under the supervisor; other kinds have nothing of their own to run, so they switch at once. */
  const action =
    (name: 'start' | 'stop' | 'restart') =>
    async (call: ComponentCall): Promise<Reply> => {
      const store = new ComponentStore(call.db);
      const id = call.params.id;
      const current = await store.get(call.tenantId, id, { forUpdate: true });
      if (!current) throw notFound(id);
      call.resourceId = id;
      const type = service.type(current.type);
      if (name !== 'stop' && !type)
        throw new ApiError(
          'component_type_unavailable',
          `Component type "${current.type}" is not contributed by any enabled plugin, so "${id}" cannot run.`,
        );
      const runs = type?.kind === 'source';
      let row: ComponentRow | undefined;
      if (name === 'stop')
        row = await store.supervise(call.tenantId, id, { desired: 'stopped', state: 'stopped' }, clock.now());
      else if (runs)
        row = await store.supervise(
          call.tenantId,
          id,
          { desired: 'running', restart: name === 'restart' },
          clock.now(),
        );
      else row = await store.supervise(call.tenantId, id, { desired: 'running', state: 'running' }, clock.now());
      await changed(call, id);
      return {
        status: 200,
        body: {
          component: toComponent(row as ComponentRow),
          action: name,
          previous_state: current.state as ComponentState,
        },
      };
    };

  return operationHandlers<Operations>({
    async listComponents(call) {
      const page = pageOf(call);
      const filter = {
        fetch: page.fetch,
        ...(typeof call.query.state === 'string' ? { state: call.query.state } : {}),
        ...(typeof call.query.tag === 'string' ? { tag: call.query.tag } : {}),
        ...(typeof call.query.type === 'string' ? { type: call.query.type } : {}),
        ...(page.after ? { afterId: afterKey(page) as string } : {}),
      };
      return {
        status: 200,
        body: { items: (await new ComponentStore(call.db).list(call.tenantId, filter)).map(toComponent) },
      };
    },

    createComponent: Object.assign(
      async (call: CreateCall): Promise<Reply> => {
        const body = call.body;
        const id = body.id ?? slugify(body.name);
        if (!id)
          throw new ApiError('validation_error', 'The name yields an empty id; send an id.', {
            details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }],
          });
        call.resourceId = id;
        const prepared = await service.prepare(call.db, call.tenantId, id, {
          type: body.type,
          config: body.config ?? {},
          stream: body.stream ?? null,
        });
        const fields: NewComponent = {
          name: body.name,
          type: body.type,
          stream: prepared.stream,
          config: prepared.config,
          secrets: prepared.secrets,
          secret_fields: prepared.secret_fields,
          // A processor or sink is usable at once (a stop holds the workflows using it); a source starts when told.
          running: service.type(body.type)?.kind !== 'source' && body.type !== 'legacy',
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.tags ? { tags: body.tags } : {}),
        };
        const row = call.write
          ? insertComponentIn(call.write, call.tenantId, id, fields, clock.now())
          : await new ComponentStore(call.db).insert(call.tenantId, id, fields, clock.now());
        const component: Record<string, unknown> = { ...toComponent(row) };
        // Shown once: secrets the service made, and where a receiving source (a webhook) listens.
        const endpoint = service.type(body.type)?.endpoint?.({ tenantId: call.tenantId, componentId: id });
        if (Object.keys(prepared.generated).length > 0 || endpoint) {
          const host = typeof call.headers.host === 'string' ? call.headers.host : undefined;
          component.shown_once = {
            secrets: prepared.generated,
            ...(endpoint ? { path: endpoint, ...(host ? { url: `http://${host}${endpoint}` } : {}) } : {}),
          };
        }
        return { status: 201, body: component, headers: { Location: `/components/${id}` } };
      },
      {
        /**
         * A create is one INSERT after its reads (a source's stream, which a transaction would not
         * lock either), so it goes with its audit record and idempotency key as one statement.
         */
        combinedWrite: () => true,
      },
    ),

    async getComponent(call) {
      const row = await new ComponentStore(call.db).get(call.tenantId, call.params.id);
      if (!row) throw notFound(call.params.id);
      return { status: 200, body: toComponent(row) };
    },

    async replaceComponent(call) {
      const body = call.body;
      return change(
        call,
        {
          name: body.name,
          description: body.description ?? '',
          tags: body.tags ?? [],
          config: body.config ?? {},
          stream: body.stream ?? null,
        },
        true,
      );
    },

    async patchComponent(call) {
      return change(call, call.body, false);
    },

    async deleteComponent(call) {
      await inUse?.(call.db, call.tenantId, 'component', call.params.id);
      if (!(await new ComponentStore(call.db).remove(call.tenantId, call.params.id))) throw notFound(call.params.id);
      await changed(call, call.params.id);
      return { status: 204 };
    },

    startComponent: action('start'),
    stopComponent: action('stop'),
    restartComponent: action('restart'),
  });

  async function change(
    call: ComponentCall,
    body: ComponentPatch,
    replace: boolean,
  ): Promise<{ status: number; body: unknown }> {
    const store = new ComponentStore(call.db);
    const id = call.params.id;
    const current = await store.get(call.tenantId, id, { forUpdate: true });
    if (!current) throw notFound(id);
    let prepared;
    if (body.config !== undefined || body.stream !== undefined) {
      // PATCH merges config into what is stored; PUT replaces it (secrets left out are kept either way).
      const config = replace ? (body.config ?? {}) : { ...current.config, ...(body.config ?? {}) };
      prepared = await service.prepare(
        call.db as Knex,
        call.tenantId,
        id,
        { type: current.type, config, stream: body.stream },
        current,
      );
    }
    const row = await store.update(
      call.tenantId,
      id,
      {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.tags !== undefined ? { tags: body.tags } : {}),
        ...(prepared
          ? {
              config: prepared.config,
              secrets: prepared.secrets,
              secret_fields: prepared.secret_fields,
              stream: prepared.stream,
            }
          : {}),
      },
      clock.now(),
    );
    if (prepared) await changed(call, id);
    return { status: 200, body: toComponent(row as ComponentRow) };
  }
}
