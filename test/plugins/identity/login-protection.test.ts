import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createUser, loginAdmin, mintToken, movableClock } from '../../support/identity.js';
import { hashPassword } from '../../../plugins/identity/passwords/scrypt.js';

const PLUGINS = ['system', 'identity', 'audit', 'components'];
const PASSWORD = 'correct horse battery staple';
/**
 * The production cost, not the test profile's cheap one: these tests time sign-ins against each
 * other, flood the hash queue, and check what is stored.
 */
const OWASP_COST = { scrypt_log_n: 17 };

describe('POST /auth/login protection', () => {
  const time = movableClock();
  let tk: TestKernel;
  let admin: string;

  before(async () => {
    tk = await startKernel(
      { plugins: PLUGINS, settings: { identity: { password: OWASP_COST } } },
      { clock: time.clock },
    );
    admin = await loginAdmin(tk);
  });
  after(() => tk.close());

  const attempt = (username: string, password: string, tenant_id = 'default') =>
    tk.request('POST', '/auth/login', { body: { tenant_id, username, password } });
  const userRow = (id: string) => tk.kernel.database.knex('identity_users').where({ tenant_id: 'default', id }).first();

  describe('lockout', () => {
    it('locks after 5 failures, refuses even the right password while locked, doubles the wait, and resets after success', async () => {
      await createUser(tk, admin, { username: 'lock-me', password: PASSWORD, roles: ['viewer'] });
      for (let i = 0; i < 4; i++) expect((await attempt('lock-me', 'wrong password!')).status).to.equal(401);
      expect((await userRow('lock-me')).failed_logins).to.equal(4);
      expect((await attempt('lock-me', 'wrong password!')).status).to.equal(401);
      let row = await userRow('lock-me');
      expect(row.lockouts).to.equal(1);
      expect(new Date(row.locked_until).getTime() - time.clock.now().getTime()).to.be.within(28_000, 30_500);

      expect((await attempt('lock-me', PASSWORD)).status, 'right password while locked').to.equal(401);
      const shown = await tk.request('GET', '/users/lock-me', { token: admin });
      expect(shown.body.locked_until).to.be.a('string');

      time.advance(31);
      for (let i = 0; i < 5; i++) expect((await attempt('lock-me', 'wrong password!')).status).to.equal(401);
      row = await userRow('lock-me');
      expect(row.lockouts).to.equal(2);
      // The second lockout in a row waits twice as long.
      time.advance(31);
      expect((await attempt('lock-me', PASSWORD)).status, 'still locked after 31 s of a 60 s lock').to.equal(401);
      time.advance(30);
      const ok = await attempt('lock-me', PASSWORD);
      expect(ok.status, ok.text).to.equal(200);
      row = await userRow('lock-me');
      expect(row).to.include({ failed_logins: 0, lockouts: 0, locked_until: null });
    });

    it('an admin can lift a lockout with PATCH /users/{id} {unlock: true}', async () => {
      await createUser(tk, admin, { username: 'unlock-me', password: PASSWORD, roles: [] });
      for (let i = 0; i < 5; i++) await attempt('unlock-me', 'wrong password!');
      expect((await attempt('unlock-me', PASSWORD)).status).to.equal(401);
      const res = await tk.request('PATCH', '/users/unlock-me', { token: admin, body: { unlock: true } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.locked_until).to.equal(null);
      expect((await attempt('unlock-me', PASSWORD)).status).to.equal(200);
    });
  });

  describe('enumeration', () => {
    it('answers unknown user, unknown tenant, wrong password, disabled and locked accounts identically', async () => {
      await createUser(tk, admin, { username: 'enum-wrong', password: PASSWORD, roles: [] });
      await createUser(tk, admin, { username: 'enum-disabled', password: PASSWORD, roles: [] });
      await createUser(tk, admin, { username: 'enum-locked', password: PASSWORD, roles: [] });
      expect(
        (await tk.request('PATCH', '/users/enum-disabled', { token: admin, body: { disabled: true } })).status,
      ).to.equal(200);
      for (let i = 0; i < 5; i++) await attempt('enum-locked', 'wrong password!');

      const answers = [
        await attempt('nobody-by-this-name', PASSWORD),
        await attempt('enum-wrong', 'wrong password!'),
        await attempt('enum-disabled', PASSWORD),
        await attempt('enum-locked', PASSWORD),
        await attempt('admin', PASSWORD, 'no-such-tenant'),
      ];
      for (const answer of answers) {
        expect(answer.status).to.equal(401);
        expect(answer.text).to.equal(answers[0]?.text);
        expect(answer.headers.get('www-authenticate')).to.equal(answers[0]?.headers.get('www-authenticate') ?? null);
      }
      expect(answers[0]?.body).to.deep.equal({
        error: { code: 'invalid_credentials', message: 'Invalid tenant, username or password.', status: 401 },
      });
    });

    it('spends a full password hash on unknown users too (comparable time)', async () => {
      const timed = async (username: string): Promise<number> => {
        const started = performance.now();
        await attempt(username, 'wrong password!');
        return performance.now() - started;
      };
      await createUser(tk, admin, { username: 'enum-timing', password: PASSWORD, roles: [] });
      await timed('warm-up-unknown');
      const known = [];
      const unknown = [];
      for (let i = 0; i < 3; i++) {
        known.push(await timed('enum-timing'));
        unknown.push(await timed(`unknown-${i}`));
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      // scrypt dominates both; without the dummy hash an unknown user would answer in ~1 ms.
      expect(mean(unknown)).to.be.greaterThan(mean(known) * 0.5);
    });
  });

  describe('password hashing', () => {
    it('stores scrypt hashes with N = 2^17, r = 8, p = 1 and re-hashes weaker ones at login', async () => {
      await createUser(tk, admin, { username: 'fresh-hash', password: PASSWORD, roles: [] });
      expect((await userRow('fresh-hash')).password_hash).to.match(/^\$scrypt\$ln=17,r=8,p=1\$/);

      const now = time.clock.now();
      const weak = await hashPassword(PASSWORD, { logN: 14, r: 8, p: 1 });
      await tk.kernel.database.knex('identity_users').insert({
        tenant_id: 'default',
        id: 'legacy',
        username: 'legacy',
        password_hash: weak,
        roles: [],
        created_at: now,
        updated_at: now,
      });
      const res = await attempt('legacy', PASSWORD);
      expect(res.status, res.text).to.equal(200);
      const stored = (await userRow('legacy')).password_hash as string;
      expect(stored).to.match(/^\$scrypt\$ln=17,r=8,p=1\$/);
      expect(stored).to.not.equal(weak);
      expect((await attempt('legacy', PASSWORD)).status).to.equal(200);
    });
  });
});

describe('POST /auth/login under a flood', () => {
  let tk: TestKernel;
  let reader: string;

  before(async () => {
    tk = await startKernel({
      plugins: PLUGINS,
      settings: { identity: { password: { ...OWASP_COST, max_concurrent_hashes: 1, max_queued_hashes: 2 } } },
    });
    reader = await mintToken(tk, await loginAdmin(tk), ['viewer']);
  });
  after(() => tk.close());

  it('caps concurrent hashes (429 beyond the queue) while other routes keep answering', async () => {
    const flood = Array.from({ length: 12 }, () =>
      tk.request('POST', '/auth/login', {
        body: { tenant_id: 'default', username: 'admin', password: 'wrong password!' },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const other = await tk.request('GET', '/components', { token: reader });
    const otherMs = performance.now() - started;
    const answers = await Promise.all(flood);
    expect(other.status).to.equal(200);
    expect(otherMs).to.be.lessThan(1000);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 429).length).to.be.greaterThan(0);
    expect(statuses.filter((s) => s === 401).length).to.be.within(1, 3);
    const limited = answers.find((a) => a.status === 429);
    expect(limited?.body.error.code).to.equal('too_many_requests');
    expect(limited?.headers.get('retry-after')).to.equal('1');
  });
});

describe("scrypt's cost against the config profile", () => {
  it('refuses to boot below N = 2^17 outside the test profile, naming the setting', async () => {
    let failure: unknown;
    try {
      const tk = await startKernel({
        profile: 'local',
        plugins: PLUGINS,
        settings: { identity: { password: { scrypt_log_n: 12 } } },
      });
      await tk.close();
    } catch (err) {
      failure = err;
    }
    expect(String(failure)).to.match(
      /settings\.identity\.password\.scrypt_log_n 12: below 17 .* only under the test profile/,
    );
  });

  it('hashes with the cost the test profile sets', async () => {
    const tk = await startKernel({ plugins: PLUGINS, settings: { identity: { password: { scrypt_log_n: 11 } } } });
    try {
      const admin = await loginAdmin(tk);
      await createUser(tk, admin, { username: 'cheap-hash', password: PASSWORD, roles: [] });
      const row = await tk.kernel.database.knex('identity_users').where({ username: 'cheap-hash' }).first();
      expect(row.password_hash).to.match(/^\$scrypt\$ln=11,r=8,p=1\$/);
    } finally {
      await tk.close();
    }
  });
});
