import { expect } from 'chai';
import { bodyRequired } from '../../../kernel/manifest/body.js';
import { compileRoute } from '../../../kernel/manifest/compile.js';
import type { JsonSchema, RouteDecl } from '../../../kernel/manifest/types.js';

function route(body: JsonSchema | undefined, extra: Partial<RouteDecl> = {}, named: Record<string, JsonSchema> = {}) {
  return compileRoute(
    'test',
    {
      operation: 'actOnThing',
      method: 'POST',
      path: '/things/{id}/act',
      permission: 'test:thing:write',
      category: 'test',
      read_only: false,
      summary: 'Act',
      response: { status: 200 },
      audit: { class: 'action' },
      idempotency: 'request_id',
      ...(body ? { body } : {}),
      ...extra,
    },
    named,
  );
}

describe('whether a route needs a JSON body', () => {
  it('does not when every field is optional, even once the kernel adds tenant_id and the idempotency field', () => {
    const optional = route({ type: 'object', additionalProperties: false, properties: { reason: { type: 'string' } } });
    expect(Object.keys(optional.schemas.body?.properties as object)).to.include.members([
      'reason',
      'tenant_id',
      'request_id',
    ]);
    expect(bodyRequired(optional)).to.equal(false);
    expect(bodyRequired(route({ type: 'object' }))).to.equal(false);
  });

  it('does not for a named schema with only optional fields', () => {
    expect(
      bodyRequired(
        route(
          { $ref: '#/schemas/Action' },
          {},
          { Action: { type: 'object', properties: { reason: { type: 'string' } } } },
        ),
      ),
    ).to.equal(false);
  });

  it('does when a field is required, at least one property is, or the manifest says so', () => {
    expect(
      bodyRequired(route({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } })),
    ).to.equal(true);
    expect(
      bodyRequired(route({ type: 'object', minProperties: 1, properties: { name: { type: 'string' } } })),
    ).to.equal(true);
    expect(
      bodyRequired(route({ type: 'object', properties: { reason: { type: 'string' } } }, { body_required: true })),
    ).to.equal(true);
  });

  it('does for what {} cannot be read to satisfy at a glance: arrays, unions, conditionals', () => {
    expect(bodyRequired(route({ type: 'array', items: { type: 'string' } }))).to.equal(true);
    expect(bodyRequired(route({ oneOf: [{ type: 'object' }, { type: 'array' }] }))).to.equal(true);
    expect(bodyRequired(route({ type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] }))).to.equal(true);
    expect(bodyRequired(route({ type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }))).to.equal(true);
  });

  it('does not for a route without a JSON body', () => {
    expect(bodyRequired(route(undefined))).to.equal(false);
    expect(bodyRequired(route(undefined, { body_type: 'octet-stream' }))).to.equal(false);
  });
});
