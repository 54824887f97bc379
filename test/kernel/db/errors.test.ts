import net from 'node:net';
import { expect } from 'chai';
import { pino } from 'pino';
import { connectDatabase, type Database } from '../../../kernel/db/connect.js';
import { isDatabaseUnreachable } from '../../../kernel/db/errors.js';
import { toApiError } from '../../../kernel/errors.js';
import { onPostgres, testDatabase } from '../../support/kernel.js';

/** knex reports each failed connect attempt to its log; these tests cause them on purpose. */
const silent = pino({ level: 'silent' });

/** What a call that failed with `err` answers. */
function answer(err: unknown): { status: number; code: string; retryAfter: string | undefined } {
  const error = toApiError(err);
  return { status: error.status, code: error.code, retryAfter: error.headers['Retry-After'] };
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('expected the statement to fail');
}

/** A TCP server on a free port that accepts connections and never says a word. */
async function listener(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('telling a database that cannot be reached from a statement it refuses', function () {
  this.timeout(120_000);

  describe('statements the database refuses', () => {
    let db: Database;
    before(async () => {
      db = await connectDatabase({ pool_max: 2, ready_timeout_ms: 2000, ...testDatabase() }, silent);
      await db.knex.raw('CREATE TABLE IF NOT EXISTS db_errors_probe (id text PRIMARY KEY)');
      await db.knex('db_errors_probe').insert({ id: 'taken' });
    });
    after(async () => {
      await db.knex.raw('DROP TABLE IF EXISTS db_errors_probe').catch(() => undefined);
      await db.close();
    });

    it('stay what they are, even when the statement reads like a lost connection', async () => {
      // knex writes the failed statement into the message; its text must not turn a refusal into a 503.
      const refused = await failure(() => db.knex.raw("select 'x - Connection terminated unexpectedly'::int"));
      expect(String((refused as Error).message)).to.include(' - Connection terminated unexpectedly');
      expect(isDatabaseUnreachable(refused)).to.equal(false);
      // A value its type refuses (22P02) is the caller's 400, not an outage.
      expect(answer(refused)).to.include({ status: 400, code: 'validation_error' });

      const duplicate = await failure(() => db.knex('db_errors_probe').insert({ id: 'taken' }));
      expect(isDatabaseUnreachable(duplicate)).to.equal(false);
    });
  });

  describe('a server that refuses the connection', () => {
    let db: Database;
    before(async () => {
      const closed = await listener();
      await closed.close();
      db = await connectDatabase(
        { url: `postgres://postgres@127.0.0.1:${closed.port}/nothing`, pool_max: 2, ready_timeout_ms: 1000 },
        silent,
      );
    });
    after(() => db.close());

    it('is 503 unavailable with Retry-After', async () => {
      const refused = await failure(() => db.knex.raw('select 1'));
      expect((refused as { code?: string }).code).to.equal('ECONNREFUSED');
      expect(answer(refused)).to.include({ status: 503, code: 'unavailable' });
      expect(Number(answer(refused).retryAfter)).to.be.above(0);
    });
  });

  describe('a server that accepts the connection and never answers', () => {
    let mute: Awaited<ReturnType<typeof listener>>;
    let db: Database;
    before(async () => {
      mute = await listener();
      db = await connectDatabase(
        { url: `postgres://postgres@127.0.0.1:${mute.port}/nothing`, pool_max: 2, ready_timeout_ms: 200 },
        silent,
      );
    });
    after(async () => {
      await db.close();
      await mute.close();
    });

    it('fails the call at the connect deadline instead of hanging, as 503 unavailable', async () => {
      const stalled = await failure(() => db.knex.raw('select 1'));
      expect(answer(stalled)).to.include({ status: 503, code: 'unavailable' });
    });
  });

  describe('on a PostgreSQL server', () => {
    let db: Database;
    before(async function () {
      if (!onPostgres) {
        console.log(
          '      (skipped: needs a PostgreSQL server to end a connection and starve a pool on; runs when DATABASE_URL is set, as .ci/run does)',
        );
        return this.skip();
      }
      db = await connectDatabase({ pool_max: 1, ready_timeout_ms: 2000, ...testDatabase() }, silent);
    });
    after(() => db?.close());

    it('is 503 unavailable when the server ends the connection under a running statement (57P01)', async () => {
      const killer = await connectDatabase({ pool_max: 1, ready_timeout_ms: 2000, ...testDatabase() }, silent);
      try {
        const pid = ((await db.knex.raw('select pg_backend_pid() as pid')) as { rows: Array<{ pid: number }> }).rows[0]
          ?.pid;
        const sleeping = failure(() => db.knex.raw('select pg_sleep(10)'));
        // Terminate it once it is really running, as an administrator or a failover would.
        for (let i = 0; i < 50; i++) {
          const { rows } = (await killer.knex.raw(
            "select count(*)::int as n from pg_stat_activity where pid = ? and query like '%pg_sleep%' and state = 'active'",
            [pid],
          )) as { rows: Array<{ n: number }> };
          if (rows[0]?.n === 1) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await killer.knex.raw('select pg_terminate_backend(?)', [pid]);
        const terminated = await sleeping;
        expect(isDatabaseUnreachable(terminated), String(terminated)).to.equal(true);
        expect(answer(terminated)).to.include({ status: 503, code: 'unavailable' });
      } finally {
        await killer.close();
      }
    });

    it('is 503 unavailable when no pooled connection frees up within the deadline', async () => {
      // A pool of its own: the one above just had its connection terminated, and whether the
      // pool has noticed that yet is a race this test is not about.
      const single = await connectDatabase({ pool_max: 1, ready_timeout_ms: 2000, ...testDatabase() }, silent);
      try {
        await single.knex.transaction(async (trx) => {
          await trx.raw('select 1');
          const starved = await failure(() => single.knex.raw('select 1'));
          expect((starved as Error).name).to.equal('KnexTimeoutError');
          expect(answer(starved)).to.include({ status: 503, code: 'unavailable' });
        });
      } finally {
        await single.close();
      }
    });
  });
});
