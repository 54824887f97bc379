import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { fromRoot } from '../../../../kernel/paths.js';
import { onPostgres, request, startKernel, type TestKernel } from '../../../support/kernel.js';
import {
  freshDataDir,
  killIfRunning,
  localEnv,
  spawnProcess,
  startNode,
  type RunningServer,
  type ServerProcess,
} from '../../../support/process.js';
import { untilSealed } from '../../../support/sealed.js';

const FIRST_PASSWORD = 'process-test-password-1';
const ADMIN = { tenant_id: 'default', username: 'admin' };

/** `node kernel/admin.mjs <args>` (what `npm run admin -- <args>` runs), to its exit. */
async function admin(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; output: string }> {
  const proc: ServerProcess = spawnProcess(process.execPath, [fromRoot('kernel', 'admin.mjs'), ...args], env);
  let stdout = '';
  proc.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await proc.exited;
  return { code, stdout, output: proc.output() };
}

function shownPassword(stdout: string): string {
  const match = /New password \(shown once\): (\S+)/.exec(stdout);
  expect(match, stdout).to.not.equal(null);
  return (match as RegExpExecArray)[1] as string;
}

async function login(
  url: string,
  password: string,
  username = ADMIN.username,
): Promise<{ status: number; token?: string }> {
  const res = await request(url, 'POST', '/auth/login', { body: { ...ADMIN, username, password } });
  return { status: res.status, token: res.body?.access_token };
}

function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}

/** The admin command's record: a PATCH of the user through the maintenance credential, from the CLI. */
async function resetRecord(url: string, token: string, userId: string): Promise<any> {
  const audit = await request(url, 'GET', `/audit?operation=patchUser&resource=${userId}`, { token });
  expect(audit.status).to.equal(200);
  const records = (audit.body.items as any[]).filter((r) => r.transport === 'cli');
  expect(records, JSON.stringify(audit.body.items)).to.have.length(1);
  return records[0];
}

describe('admin command reset-password', function () {
  this.timeout(300000);

  describe('on the embedded data directory (local profile)', () => {
    const started: number[] = [];
    afterEach(() => {
      for (const pid of started.splice(0)) killIfRunning(pid);
    });

    it('refuses while the server runs there; once it is stopped, sets a printed password, clears the lockout, ends the sessions, keeps the data and audits it', async () => {
      const dataDir = freshDataDir();
      let server: RunningServer = await startNode(dataDir);
      started.push(server.pid);
      const first = await login(server.url, FIRST_PASSWORD);
      expect(first.status).to.equal(200);
      const oldSession = first.token as string;
      expect(
        (
          await request(server.url, 'POST', '/components', {
            token: oldSession,
            body: { type: 'passthrough', id: 'survivor', name: 'Survivor' },
          })
        ).status,
      ).to.equal(201);
      // The password is "lost": wrong guesses lock the account, so even the right one is refused now.
      for (let i = 0; i < 5; i++) expect((await login(server.url, `wrong-guess-number-${i}`)).status).to.equal(401);
      expect((await login(server.url, FIRST_PASSWORD)).status).to.equal(401);

      const env = localEnv(dataDir);
      delete env.RUNTIME_ADMIN_PASSWORD;
      const whileServing = await admin(['reset-password'], env);
      expect(whileServing.code).to.equal(3);
      expect(whileServing.output).to.match(
        new RegExp(
          `reset-password: the data directory .+ is in use by another runtime process \\(pid ${server.pid} on `,
        ),
      );

      server.child.kill('SIGTERM');
      expect(await server.exited).to.equal(0);

      const noSuchUser = await admin(['reset-password', '--user', 'nobody'], env);
      expect(noSuchUser.code).to.equal(1);
      expect(noSuchUser.output).to.include('reset-password: no user "nobody" in tenant "default"');
      const badOption = await admin(['reset-password', '--tenant'], env);
      expect(badOption.code).to.equal(2);
      expect(badOption.output).to.include(
        'usage: npm run admin -- reset-password [--tenant <id>] [--user <username or id>] [--enable]',
      );

      const reset = await admin(['reset-password', '--tenant', 'default', '--user', 'admin'], env);
      expect(reset.code, reset.output).to.equal(0);
      expect(reset.stdout).to.include(
        'Password of user "admin" in tenant "default" reset: lockout cleared, sessions ended.',
      );
      const password = shownPassword(reset.stdout);
      expect(password).to.have.length.greaterThan(20);

      server = await startNode(dataDir);
      started.push(server.pid);
      expect(
        (await request(server.url, 'GET', '/components/survivor', { token: oldSession })).status,
        'the old session ended',
      ).to.equal(401);
      expect((await login(server.url, FIRST_PASSWORD)).status).to.equal(401);
      const fresh = await login(server.url, password);
      expect(fresh.status, 'the new password works at once: the lockout is cleared').to.equal(200);
      const token = fresh.token as string;
      const kept = await request(server.url, 'GET', '/components/survivor', { token });
      expect(kept.status).to.equal(200);
      expect(kept.body.name).to.equal('Survivor');

      const record = await resetRecord(server.url, token, 'admin');
      expect(record).to.deep.include({ method: 'PATCH', path: '/users/admin', status: 200, outcome: 'success' });
      expect(record.actor).to.deep.include({
        subject_id: 'maintenance',
        credential_kind: 'maintenance',
        credential_id: 'reset-password',
        actor_type: 'human',
        actor_id: operatorName(),
      });
      expect(record.fields).to.deep.include({ unlock: true });
      expect(record.detail).to.deep.include({ reason: 'password_changed', sessions_revoked: 1 });
      expect(JSON.stringify(record)).to.not.include(password);
      const verify = await untilSealed(() => request(server.url, 'GET', '/audit/verify', { token }));
      expect(verify.body).to.deep.include({ valid: true, unsealed: 0 });
    });

    it('lists its commands with `help`, and refuses an unknown command with the list and exit code 2', async () => {
      const env = localEnv(freshDataDir());
      const help = await admin(['help'], env);
      expect(help.code).to.equal(0);
      expect(help.stdout).to.include('reset-password [--tenant <id>] [--user <username or id>] [--enable]');
      const unknown = await admin(['reset-everything'], env);
      expect(unknown.code).to.equal(2);
      expect(unknown.output).to.include('unknown command "reset-everything"');
      expect(unknown.output).to.include('reset-password');
    });

    it('creates nothing on an empty data directory: no tenant, no bootstrap admin', async () => {
      const env = localEnv(freshDataDir());
      const result = await admin(['reset-password'], env);
      expect(result.code).to.equal(1);
      expect(result.output).to.include('reset-password: no tenant "default"');
    });
  });

  describe('on PostgreSQL (DATABASE_URL), next to a running server', () => {
    let tk: TestKernel;
    let env: NodeJS.ProcessEnv;

    before(async function () {
      if (!onPostgres) {
        console.log('      (skipped: needs PostgreSQL; runs when DATABASE_URL is set, as .ci/run does)');
        this.skip();
      }
      const schema = `reset_${randomBytes(5).toString('hex')}`;
      tk = await startKernel({}, { schema });
      const url = new URL(process.env.DATABASE_URL as string);
      url.searchParams.set('options', `-c search_path=${schema}`);
      env = { ...process.env, RUNTIME_PROFILE: 'test', DATABASE_URL: url.toString() };
      delete env.RUNTIME_PLUGINS;
    });
    after(async () => {
      await tk?.close();
    });

    it('sets RUNTIME_ADMIN_PASSWORD, which the running server takes at once, ending the sessions it serves; a disabled user needs --enable', async () => {
      const adminLogin = await login(tk.url, 'test-admin-password-0000');
      expect(adminLogin.status).to.equal(200);
      const adminToken = adminLogin.token as string;
      const created = await request(tk.url, 'POST', '/users', {
        token: adminToken,
        body: { username: 'ops', password: 'ops-password-before-1', roles: ['viewer'] },
      });
      expect(created.status, created.text).to.equal(201);
      const opsSession = (await login(tk.url, 'ops-password-before-1', 'ops')).token as string;
      expect((await request(tk.url, 'GET', '/components', { token: opsSession })).status).to.equal(200);
      expect(
        (await request(tk.url, 'PATCH', '/users/ops', { token: adminToken, body: { disabled: true } })).status,
      ).to.equal(200);

      const chosen = 'chosen-by-the-operator-1';
      const refused = await admin(['reset-password', '--user', 'ops'], { ...env, RUNTIME_ADMIN_PASSWORD: chosen });
      expect(refused.code).to.equal(1);
      expect(refused.output).to.include(
        'user "ops" in tenant "default" is disabled; add --enable to enable it as well',
      );

      const enabled = await admin(['reset-password', '--user', 'ops', '--enable'], {
        ...env,
        RUNTIME_ADMIN_PASSWORD: chosen,
      });
      expect(enabled.code, enabled.output).to.equal(0);
      expect(enabled.stdout).to.include(
        'Password of user "ops" in tenant "default" reset: lockout cleared, sessions ended, account enabled.',
      );
      expect(enabled.stdout, 'a chosen password is not printed').to.not.include(chosen);

      expect((await login(tk.url, 'ops-password-before-1', 'ops')).status).to.equal(401);
      const fresh = await login(tk.url, chosen, 'ops');
      expect(fresh.status).to.equal(200);
      expect((await request(tk.url, 'GET', '/components', { token: fresh.token as string })).status).to.equal(200);
      const record = await resetRecord(tk.url, adminToken, 'ops');
      expect(record.fields).to.deep.include({ unlock: true, disabled: false });

      const tooShort = await admin(['reset-password', '--user', 'ops'], { ...env, RUNTIME_ADMIN_PASSWORD: 'short' });
      expect(tooShort.code).to.equal(1);
      expect(tooShort.output).to.match(/reset-password: validation_error: .*body \/password/);
      expect((await login(tk.url, chosen, 'ops')).status, 'a refused reset changes nothing').to.equal(200);

      expect(
        (await admin(['reset-password'], { ...env, RUNTIME_ADMIN_PASSWORD: 'the-admin-is-back-1' })).code,
      ).to.equal(0);
      expect(
        (await request(tk.url, 'GET', '/components', { token: adminToken })).status,
        "the admin's live session ended",
      ).to.equal(401);
      expect((await login(tk.url, 'the-admin-is-back-1')).status).to.equal(200);
    });
  });
});
