import { expect } from 'chai';
import { operationHandlers, type CallOf, type OperationTypes } from '../../../kernel/plugin/api.js';

/** Two operations as a plugin's generated module describes them (plugins/<id>/generated/manifest-types.ts). */
type Operations = {
  createWidget: {
    params: Record<string, never>;
    query: { dry_run?: boolean };
    body: { name: string; size: number; tenant_id?: string };
    tenant: true;
    authenticated: true;
  };
  getStatus: {
    params: { id: string };
    query: Record<string, never>;
    body: unknown;
    tenant: false;
    authenticated: false;
  };
};

// What handlers rely on, checked by the compiler (tsc runs before every test run).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const checks: [
  Equal<CallOf<Operations['createWidget']>['body'], Operations['createWidget']['body']>,
  Equal<CallOf<Operations['createWidget']>['tenantId'], string>,
  Equal<CallOf<Operations['getStatus']>['tenantId'], string | undefined>,
  Equal<CallOf<Operations['getStatus']>['params']['id'], string>,
  Operations extends Record<string, OperationTypes> ? true : false,
] = [true, true, true, true, true];

describe('handlers typed by operationId (operationHandlers)', () => {
  it('hands each handler its operation’s input typed, and registers the very same handlers', async () => {
    expect(checks).to.deep.equal([true, true, true, true, true]);
    const handlers = operationHandlers<Operations>({
      createWidget: (call) => ({
        status: 201,
        body: { name: call.body.name, size: call.body.size, in: call.tenantId },
      }),
      getStatus: (call) => ({ status: 200, body: { id: call.params.id, subject: call.principal?.subjectId ?? null } }),
    });
    expect(Object.keys(handlers)).to.deep.equal(['createWidget', 'getStatus']);
  });

  it('refuses at compile time a handler for an operation the manifest does not declare', () => {
    const handlers = operationHandlers<Operations>({
      // @ts-expect-error — no operation of that name in Operations
      deleteWidget: () => ({ status: 204 }),
    });
    expect(Object.keys(handlers)).to.deep.equal(['deleteWidget']);
  });
});
