import { ApiError } from '../../kernel/errors.js';
import { slugify } from '../../kernel/plugin/api.js';
import { afterKey, pageOf } from '../../kernel/plugin/api.js';
import type { Call, Clock, Handler } from '../../kernel/types.js';
import { ComponentStore, type ComponentFields, type ComponentState } from './store.js';

type Body = ComponentFields & { id?: string };

function tenant(call: Call): string {
  return call.tenantId as string;
}

function idParam(call: Call): string {
  return String(call.params.id);
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', `No component "${id}".`);
}

/** What each supervisor action leads to. */
const ACTIONS: Record<'start' | 'stop' | 'restart', ComponentState> = { start: 'running', stop: 'stopped', restart: 'running' };

export function componentHandlers(clock: Clock): Record<string, Handler> {
  const action = (name: keyof typeof ACTIONS): Handler => async (call) => {
    const store = new ComponentStore(call.db);
    const id = idParam(call);
    const current = await store.get(tenant(call), id);
    if (!current) throw notFound(id);
    const component = await store.update(tenant(call), id, { state: ACTIONS[name] }, clock.now());
    call.resourceId = id;
    return { status: 200, body: { component, action: name, previous_state: current.state } };
  };

  return {
    async listComponents(call) {
      const page = pageOf(call);
      const filter = {
        fetch: page.fetch,
        ...(typeof call.query.state === 'string' ? { state: call.query.state } : {}),
        ...(typeof call.query.tag === 'string' ? { tag: call.query.tag } : {}),
        ...(page.after ? { afterId: afterKey(page) as string } : {}),
      };
      return { status: 200, body: { items: await new ComponentStore(call.db).list(tenant(call), filter) } };
    },

    async createComponent(call) {
      const body = call.body as Body;
      const id = body.id ?? slugify(body.name);
      if (!id) throw new ApiError('validation_error', 'The name yields an empty id; send an id.', { details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }] });
      call.resourceId = id;
      const component = await new ComponentStore(call.db).insert(tenant(call), id, body, clock.now());
      return { status: 201, body: component, headers: { Location: `/components/${id}` } };
    },

    async getComponent(call) {
      const component = await new ComponentStore(call.db).get(tenant(call), idParam(call));
      if (!component) throw notFound(idParam(call));
      return { status: 200, body: component };
    },

    async replaceComponent(call) {
      const body = call.body as ComponentFields;
      const fields = { name: body.name, description: body.description ?? '', tags: body.tags ?? [], config: body.config ?? {} };
      const component = await new ComponentStore(call.db).update(tenant(call), idParam(call), fields, clock.now());
      if (!component) throw notFound(idParam(call));
      return { status: 200, body: component };
    },

    async patchComponent(call) {
      const component = await new ComponentStore(call.db).update(tenant(call), idParam(call), call.body as Partial<ComponentFields>, clock.now());
      if (!component) throw notFound(idParam(call));
      return { status: 200, body: component };
    },

    async deleteComponent(call) {
      if (!(await new ComponentStore(call.db).remove(tenant(call), idParam(call)))) throw notFound(idParam(call));
      return { status: 204 };
    },

    startComponent: action('start'),
    stopComponent: action('stop'),
    restartComponent: action('restart'),
  };
}
