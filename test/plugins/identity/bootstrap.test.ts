import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { login } from '../../support/identity.js';

const PLUGINS = ['system', 'identity', 'audit', 'components'];

async function bootCapturingStderr(overrides: Record<string, unknown>): Promise<{ tk: TestKernel; stderr: string }> {
  const original = process.stderr.write.bind(process.stderr);
  let captured = '';
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    captured += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    return { tk: await startKernel(overrides), stderr: captured };
  } finally {
    process.stderr.write = original;
  }
}

describe('bootstrap of tenant default and user admin', function () {
  // Each test boots a kernel and signs in: on a loaded two-core machine that passed 30 s when scrypt ran at N = 2^17.
  this.timeout(120_000);
  it('generates a password when none is configured and prints it once to stderr', async () => {
    const { tk, stderr } = await bootCapturingStderr({
      plugins: PLUGINS,
      settings: { identity: { bootstrap: { admin_password: undefined } } },
    });
    try {
      const match = /username "admin", password: (\S+)/.exec(stderr);
      expect(match, stderr).to.not.equal(null);
      const password = match?.[1] as string;
      expect(password.length).to.be.greaterThanOrEqual(20);
      const session = await login(tk, { tenant_id: 'default', username: 'admin', password });
      const tenants = await tk.request('GET', '/tenants', { token: session.access_token });
      expect(tenants.status).to.equal(200);
      const user = await tk.kernel.database.knex('identity_users').where({ tenant_id: 'default', id: 'admin' }).first();
      expect(user.roles).to.deep.equal(['admin', 'account-admin']);
      expect(user.password_hash).to.not.include(password);
    } finally {
      await tk.close();
    }
  });

  it('uses RUNTIME_ADMIN_PASSWORD when set, and prints nothing', async () => {
    const previous = process.env.RUNTIME_ADMIN_PASSWORD;
    process.env.RUNTIME_ADMIN_PASSWORD = 'password from the environment';
    let tk: TestKernel | undefined;
    try {
      const booted = await bootCapturingStderr({ plugins: PLUGINS });
      tk = booted.tk;
      expect(booted.stderr).to.not.include('password');
      await login(tk, { tenant_id: 'default', username: 'admin', password: 'password from the environment' });
      const configured = await tk.request('POST', '/auth/login', {
        body: { tenant_id: 'default', username: 'admin', password: 'test-admin-password-0000' },
      });
      expect(configured.status).to.equal(401);
    } finally {
      if (previous === undefined) delete process.env.RUNTIME_ADMIN_PASSWORD;
      else process.env.RUNTIME_ADMIN_PASSWORD = previous;
      await tk?.close();
    }
  });
});
