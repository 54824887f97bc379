import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import { afterKey, pageOf, slugify, type Events } from '../../kernel/plugin/api.js';
import type { Call, Clock, Handler } from '../../kernel/types.js';
import type { ComponentsService } from './service.js';
import { ComponentStore, toComponent, type ComponentRow, type ComponentState } from './store.js';

interface Body {
  id?: string;
  name: string;
  type: string;
  stream?: string | null;
  description?: string;
  tags?: string[];
  config?: Record<string, unknown>;
}

/** Says "this component changed": the instance running it re-reads it (stop, restart, new config). */
export const CHANGED_TOPIC = 'components.changed';

const tenant = (call: Call): string => call.tenantId as string;
const idParam = (call: Call): string => String(call.params.id);
const notFound = (id: string) => new ApiError('not_found', `No component "${id}".`);

export function componentHandlers(clock: Clock, service: ComponentsService, events: Events): Record<string, Handler> {
  const changed = (call: Call, id: string) => events.publish(CHANGED_TOPIC, { tenant_id: tenant(call), id }, { db: call.db });

  /** Sources run under the supervisor; other kinds have nothing of their own to run, so they switch at once. */
  const action = (name: 'start' | 'stop' | 'restart'): Handler => async (call) => {
    const store = new ComponentStore(call.db);
    const id = idParam(call);
    const current = await store.get(tenant(call), id, { forUpdate: true });
    if (!current) throw notFound(id);
    call.resourceId = id;
    const type = service.type(current.type);
    if (name !== 'stop' && !type) throw new ApiError('component_type_unavailable', `Component type "${current.type}" is not contributed by any enabled plugin, so "${id}" cannot run.`);
    const runs = type?.kind === 'source';
    let row: ComponentRow | undefined;
    if (name === 'stop') row = await store.supervise(tenant(call), id, { desired: 'stopped', state: 'stopped' }, clock.now());
    else if (runs) row = await store.supervise(tenant(call), id, { desired: 'running', restart: name === 'restart' }, clock.now());
    else row = await store.supervise(tenant(call), id, { desired: 'running', state: 'running' }, clock.now());
    await changed(call, id);
    return { status: 200, body: { component: toComponent(row as ComponentRow), action: name, previous_state: current.state as ComponentState } };
  };

  return {
    async listComponents(call) {
      const page = pageOf(call);
      const filter = {
        fetch: page.fetch,
        ...(typeof call.query.state === 'string' ? { state: call.query.state } : {}),
        ...(typeof call.query.tag === 'string' ? { tag: call.query.tag } : {}),
        ...(typeof call.query.type === 'string' ? { type: call.query.type } : {}),
        ...(page.after ? { afterId: afterKey(page) as string } : {}),
      };
      return { status: 200, body: { items: (await new ComponentStore(call.db).list(tenant(call), filter)).map(toComponent) } };
    },

    async createComponent(call) {
      const body = call.body as Body;
      const id = body.id ?? slugify(body.name);
      if (!id) throw new ApiError('validation_error', 'The name yields an empty id; send an id.', { details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }] });
      call.resourceId = id;
      const prepared = await service.prepare(call.db, tenant(call), id, { type: body.type, config: body.config ?? {}, stream: body.stream ?? null });
      const row = await new ComponentStore(call.db).insert(
        tenant(call),
        id,
        { name: body.name, type: body.type, stream: prepared.stream, config: prepared.config, secrets: prepared.secrets, secret_fields: prepared.secret_fields, ...(body.description !== undefined ? { description: body.description } : {}), ...(body.tags ? { tags: body.tags } : {}) },
        clock.now(),
      );
      const component: Record<string, unknown> = { ...toComponent(row) };
      // Shown once: secrets the service made, and where a receiving source (a webhook) listens.
      const endpoint = service.type(body.type)?.endpoint?.({ tenantId: tenant(call), componentId: id });
      if (Object.keys(prepared.generated).length > 0 || endpoint) {
        const host = typeof call.headers.host === 'string' ? call.headers.host : undefined;
        component.shown_once = { secrets: prepared.generated, ...(endpoint ? { path: endpoint, ...(host ? { url: `http://${host}${endpoint}` } : {}) } : {}) };
      }
      return { status: 201, body: component, headers: { Location: `/components/${id}` } };
    },

    async getComponent(call) {
      const row = await new ComponentStore(call.db).get(tenant(call), idParam(call));
      if (!row) throw notFound(idParam(call));
      return { status: 200, body: toComponent(row) };
    },

    async replaceComponent(call) {
      const body = call.body as Omit<Body, 'id' | 'type'>;
      return change(call, { name: body.name, description: body.description ?? '', tags: body.tags ?? [], config: body.config ?? {}, stream: body.stream ?? null }, true);
    },

    async patchComponent(call) {
      return change(call, call.body as Partial<Body>, false);
    },

    async deleteComponent(call) {
      if (!(await new ComponentStore(call.db).remove(tenant(call), idParam(call)))) throw notFound(idParam(call));
      await changed(call, idParam(call));
      return { status: 204 };
    },

    startComponent: action('start'),
    stopComponent: action('stop'),
    restartComponent: action('restart'),
  };

  async function change(call: Call, body: Partial<Body>, replace: boolean): Promise<{ status: number; body: unknown }> {
    const store = new ComponentStore(call.db);
    const id = idParam(call);
    const current = await store.get(tenant(call), id, { forUpdate: true });
    if (!current) throw notFound(id);
    let prepared;
    if (body.config !== undefined || body.stream !== undefined) {
      // PATCH merges config into what is stored; PUT replaces it (secrets left out are kept either way).
      const config = replace ? body.config ?? {} : { ...current.config, ...(body.config ?? {}) };
      prepared = await service.prepare(call.db as Knex, tenant(call), id, { type: current.type, config, stream: body.stream }, current);
    }
    const row = await store.update(
      tenant(call),
      id,
      {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.tags !== undefined ? { tags: body.tags } : {}),
        ...(prepared ? { config: prepared.config, secrets: prepared.secrets, secret_fields: prepared.secret_fields, stream: prepared.stream } : {}),
      },
      clock.now(),
    );
    if (prepared) await changed(call, id);
    return { status: 200, body: toComponent(row as ComponentRow) };
  }
}
