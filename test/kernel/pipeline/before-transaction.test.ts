import { expect } from 'chai';
import type { Knex } from 'knex';
import { transactionStep } from '../../../kernel/db/transaction-step.js';
import type { Call, CompiledRoute, Handler, KernelServices, Reply } from '../../../kernel/types.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

/**
 * A handler's `beforeTransaction` work runs after the earlier steps and before the route's
 * transaction opens (holding no connection), except on dry runs; a failure there ends the call
 * before any transaction.
 */
describe('pipeline: a handler’s beforeTransaction work', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  const route = { mutating: true, auditClass: 'change', decl: { read_only: false } } as unknown as CompiledRoute;

  function run(handler: Handler, dryRun: boolean): Promise<Reply> {
    const kernel = { db: tk.kernel.database.knex } as unknown as KernelServices;
    const step = transactionStep()(route, kernel, handler);
    expect(step).to.not.equal(null);
    const call = { db: kernel.db, dryRun, notes: {} } as unknown as Call;
    return (step as NonNullable<typeof step>)(call, () => Promise.resolve(handler(call)));
  }

  function isTransaction(db: unknown): boolean {
    return (db as Knex.Transaction).isTransaction === true;
  }

  it('runs outside the transaction, before the handler runs inside it', async () => {
    const seen: string[] = [];
    const handler: Handler = Object.assign(
      (call: Call): Reply => {
        seen.push(`handler in transaction: ${isTransaction(call.db)}`);
        return { status: 201 };
      },
      {
        async beforeTransaction(call: Call) {
          seen.push(`before in transaction: ${isTransaction(call.db)}`);
          // The embedded database has one connection: this query would wait forever inside an open transaction.
          await tk.kernel.database.knex.raw('SELECT 1');
        },
      },
    );
    expect((await run(handler, false)).status).to.equal(201);
    expect(seen).to.deep.equal(['before in transaction: false', 'handler in transaction: true']);
  });

  it('is skipped on a dry run, and a failure in it ends the call before the handler', async () => {
    let before = 0;
    let handled = 0;
    const handler: Handler = Object.assign(
      (): Reply => {
        handled++;
        return { status: 201 };
      },
      {
        async beforeTransaction() {
          before++;
          if (before > 0) throw new Error('remote refused');
        },
      },
    );
    // A dry run is rolled back by the step and answers the handler's reply.
    expect((await run(handler, true)).status).to.equal(201);
    expect({ before, handled }).to.deep.equal({ before: 0, handled: 1 });
    let failure: unknown;
    await run(handler, false).catch((err: unknown) => {
      failure = err;
    });
    expect((failure as Error).message).to.equal('remote refused');
    expect({ before, handled }).to.deep.equal({ before: 1, handled: 1 });
  });
});
