import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { bootstrapCredentials, createUser, login } from '../../support/identity.js';

/**
 * After a session of ordinary use, a dump of every table must not contain any secret the
 * service showed or was shown: passwords (right and wrong), access and refresh tokens, API
 * token secrets and the break-glass key. Only hashes may be stored.
 */
describe('secrets at rest', () => {
  const breakGlassKey = `bg_${randomBytes(24).toString('base64url')}`;
  let tk: TestKernel;
  const secrets: string[] = [];

  before(async () => {
    tk = await startKernel({
      settings: {
        identity: { break_glass: { key_hash: `sha256:${createHash('sha256').update(breakGlassKey).digest('hex')}` } },
      },
    });
  });
  after(() => tk.close());

  it('a dump of all tables holds none of the secrets used', async () => {
    const admin = bootstrapCredentials();
    secrets.push(admin.password, breakGlassKey);
    const session = await login(tk, admin);
    secrets.push(session.access_token, session.refresh_token);
    const refreshed = await tk.request('POST', '/auth/refresh', { body: { refresh_token: session.refresh_token } });
    secrets.push(refreshed.body.access_token, refreshed.body.refresh_token);
    const token = refreshed.body.access_token as string;

    const userPassword = 'a user password of some length';
    await createUser(tk, token, { username: 'dumpling', password: userPassword, roles: ['viewer'] });
    secrets.push(userPassword);
    const changed = 'the changed user password';
    expect((await tk.request('PATCH', '/users/dumpling', { token, body: { password: changed } })).status).to.equal(200);
    secrets.push(changed);
    const wrong = 'a wrong password typed in';
    expect(
      (
        await tk.request('POST', '/auth/login', {
          body: { tenant_id: 'default', username: 'dumpling', password: wrong },
        })
      ).status,
    ).to.equal(401);
    secrets.push(wrong);
    const userSession = await login(tk, { tenant_id: 'default', username: 'dumpling', password: changed });
    secrets.push(userSession.access_token, userSession.refresh_token);

    for (const readOnly of [false, true]) {
      const minted = await tk.request('POST', '/api-tokens', {
        token,
        body: { name: `dump ${readOnly}`, roles: ['viewer'], read_only: readOnly },
      });
      expect(minted.status).to.equal(201);
      secrets.push(minted.body.secret);
      expect(
        (await tk.request('GET', '/components', { headers: { 'x-api-key': minted.body.secret } })).status,
      ).to.equal(200);
    }
    const glass = await tk.request('POST', '/components', {
      headers: { authorization: `BreakGlass ${breakGlassKey}`, 'x-break-glass-reason': 'dump test' },
      body: { type: 'passthrough', name: 'glass' },
    });
    expect(glass.status).to.equal(201);
    expect((await tk.request('POST', '/auth/logout', { token })).status).to.equal(204);

    const knex = tk.kernel.database.knex;
    const tables = (await knex('information_schema.tables')
      .where({ table_type: 'BASE TABLE' })
      .andWhereRaw('table_schema = current_schema()')
      .pluck('table_name')) as string[];
    expect(tables).to.include.members([
      'identity_users',
      'identity_sessions',
      'identity_api_tokens',
      'identity_refresh_history',
      'audit_records',
    ]);
    let rows = 0;
    let dump = '';
    for (const table of tables) {
      const content = (await knex(table).select('*')) as Array<Record<string, unknown>>;
      rows += content.length;
      dump += `${table}\n${JSON.stringify(content, (_k, v: unknown) => (v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer' ? Buffer.from((v as { data: number[] }).data).toString('latin1') : v))}\n`;
    }
    expect(rows).to.be.greaterThan(20);
    expect(secrets).to.have.length(13);
    for (const secret of secrets) {
      expect(dump.includes(secret), `a table holds the secret ${secret.slice(0, 8)}…`).to.equal(false);
      // Not even the random part without its prefix.
      const body = secret.replace(/^(sess|rt|sk)_/, '');
      expect(dump.includes(body)).to.equal(false);
    }
    // What is stored instead: the SHA-256 of each token.
    expect(dump).to.include(createHash('sha256').update(userSession.access_token).digest('hex'));
  });
});
