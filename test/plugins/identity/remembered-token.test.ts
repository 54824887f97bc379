import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createUser, login, loginAdmin, mintToken } from '../../support/identity.js';

const PLUGINS = ['system', 'identity', 'audit', 'components'];
const PASSWORD = 'builder password 123';

/**
 * A keyed create is one combined statement; once a check of its API token passed, the next calls
 * with that token read no token at all: their statement carries the check (a guard part). These
 * tests hold that to what a read of the token would decide: a token revoked — or whose minter
 * was disabled — before the call is refused with 401 as before, nothing of the call is written,
 * and its record is the refusal the chain writes for a token it reads and refuses.
 */
describe('API tokens confirmed in the write they authorise', () => {
  let tk: TestKernel;
  let admin: string;
  let sequence = 0;
  const db = () => tk.kernel.database.knex;

  before(async () => {
    tk = await startKernel({ plugins: PLUGINS });
    admin = await loginAdmin(tk);
  });
  after(() => tk.close());

  const create = (token: string, extra: Record<string, unknown> = {}) => {
    sequence += 1;
    return tk.request('POST', '/components', {
      token,
      body: { id: `remembered-${sequence}`, name: `Remembered ${sequence}`, type: 'passthrough', ...extra },
    });
  };
  const revoke = async (secret: string) => {
    const hash = createHash('sha256').update(secret).digest('hex');
    const row = await db()('identity_api_tokens').where({ secret_hash: hash }).first('id');
    const res = await tk.request('DELETE', `/api-tokens/${row.id}?tenant_id=default`, { token: admin });
    expect(res.status, res.text).to.equal(204);
  };
  const minted = (minter = admin): Promise<string> => mintToken(tk, minter, ['admin']);

  /** The statements a request sends, read from the kernel's database handle. */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    const sent: string[] = [];
    const listener = (q: { sql: string }) => sent.push(q.sql);
    db().on('query', listener);
    try {
      await work();
    } finally {
      db().removeListener('query', listener);
    }
    return sent;
  }

  it('reads the token once: the next keyed create with it sends only its own statement, which checks the token', async () => {
    const secret = await minted();
    expect((await create(secret, { idempotency_key: 'first-read' })).status).to.equal(201);
    let res: Awaited<ReturnType<typeof create>> | undefined;
    const sent = await statementsOf(async () => (res = await create(secret, { idempotency_key: 'then-none' })));
    expect(res?.status, res?.text).to.equal(201);
    const write = sent.filter((sql) => sql.includes('INSERT INTO components'));
    expect(write).to.have.length(1);
    expect(write[0]).to.match(/api_token_\d+ AS \(SELECT 1 FROM identity_api_tokens/);
    expect(
      sent.filter((sql) => sql.includes('identity_api_tokens') && !sql.includes('INSERT INTO components')),
    ).to.deep.equal([]);
  });

  it('reads the token for every read: a GET is answered only on a fresh check', async () => {
    const secret = await minted();
    expect((await create(secret)).status).to.equal(201);
    const sent = await statementsOf(() => tk.request('GET', '/components', { token: secret }));
    expect(sent.some((sql) => sql.includes('identity_api_tokens'))).to.equal(true);
  });

  it('refuses the next write once the token is revoked, writes nothing of it, and records the same refusal as a token read afresh', async () => {
    const remembered = await minted();
    const unread = await minted();
    expect((await create(remembered)).status).to.equal(201);
    await revoke(remembered);
    await revoke(unread);

    // The same body both times: the records are compared, fields and all.
    const body = { id: 'after-revoke', name: 'After revoke', type: 'passthrough', idempotency_key: 'after-revoke' };
    const refused = await tk.request('POST', '/components', {
      token: remembered,
      body,
      headers: { 'x-request-id': 'remembered-revoked' },
    });
    expect(refused.status, refused.text).to.equal(401);
    expect(refused.body.error.code).to.equal('invalid_credentials');
    const control = await tk.request('POST', '/components', {
      token: unread,
      body,
      headers: { 'x-request-id': 'unread-revoked' },
    });
    expect(control.status).to.equal(401);
    expect(refused.body.error).to.deep.equal(control.body.error);

    expect(await db()('components').where({ id: 'after-revoke' })).to.have.length(0);
    expect(await db()('kernel_idempotency_keys').where({ key: 'after-revoke' })).to.have.length(0);
    const record = async (requestId: string) => {
      const rows = await db()('audit_records').where({ request_id: requestId });
      expect(rows).to.have.length(1);
      const { id: _id, xact: _xact, at: _at, request_id: _request, ...rest } = rows[0];
      return rest;
    };
    const mine = await record('remembered-revoked');
    expect(mine).to.include({ tenant_id: '_account', status: 401, outcome: 'refused', subject_id: null });
    expect(mine).to.deep.equal(await record('unread-revoked'));
  });

  it("refuses the next write once the token's minter is disabled", async () => {
    await createUser(tk, admin, { username: 'minter', password: PASSWORD, roles: ['admin'] });
    const session = (await login(tk, { tenant_id: 'default', username: 'minter', password: PASSWORD })).access_token;
    const secret = await minted(session);
    expect((await create(secret)).status).to.equal(201);
    const disabled = await tk.request('PATCH', '/users/minter', { token: admin, body: { disabled: true } });
    expect(disabled.status, disabled.text).to.equal(200);
    const refused = await create(secret);
    expect(refused.status, refused.text).to.equal(401);
    expect(await db()('components').where({ id: `remembered-${sequence}` })).to.have.length(0);
  });

  it('answers a revoked token 401 whatever else a later step would have refused (a bad body), and a dry run too', async () => {
    const secret = await minted();
    expect((await create(secret)).status).to.equal(201);
    await revoke(secret);
    const invalid = await tk.request('POST', '/components', { token: secret, body: { name: 'no type' } });
    expect(invalid.status, invalid.text).to.equal(401);
    const dry = await tk.request('POST', '/components?dry_run=true', {
      token: secret,
      body: { id: 'dry-after-revoke', name: 'Dry', type: 'passthrough' },
    });
    expect(dry.status, dry.text).to.equal(401);
  });

  it('replays a stored response only on a fresh check of the token', async () => {
    const secret = await minted();
    const first = await create(secret, { idempotency_key: 'replayed' });
    expect(first.status).to.equal(201);
    const again = await tk.request('POST', '/components', {
      token: secret,
      body: { id: first.body.id, name: first.body.name, type: 'passthrough', idempotency_key: 'replayed' },
    });
    expect(again.status, again.text).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    await revoke(secret);
    const after = await tk.request('POST', '/components', {
      token: secret,
      body: { id: first.body.id, name: first.body.name, type: 'passthrough', idempotency_key: 'replayed' },
    });
    expect(after.status, after.text).to.equal(401);
  });

  it('keeps each of many concurrent keyed creates with one token to its own outcome', async () => {
    const secret = await minted();
    expect((await create(secret)).status).to.equal(201);
    const ids = Array.from({ length: 12 }, (_, i) => `together-${i}`);
    const answers = await Promise.all(
      ids.map((id, i) =>
        tk.request('POST', '/components', {
          token: secret,
          // One id twice: that call alone is refused (409), the others commit.
          body: { id: i === 11 ? 'together-0' : id, name: id, type: 'passthrough', idempotency_key: `together-${i}` },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).to.deep.equal([...Array(11).fill(201), 409]);
    expect(await db()('components').whereLike('id', 'together-%')).to.have.length(11);
  });
});
