import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';

const PLUGINS = ['system', 'identity', 'audit', 'components'];

describe('break-glass key', () => {
  describe('when not configured (the default)', () => {
    let tk: TestKernel;
    before(async () => {
      tk = await startKernel({ plugins: PLUGINS });
    });
    after(() => tk.close());

    it('is not a credential at all', async () => {
      const res = await tk.request('GET', '/components', {
        headers: { authorization: 'BreakGlass anything', 'x-break-glass-reason': 'incident' },
      });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('invalid_credentials');
    });
  });

  describe('when configured as a hash', () => {
    const key = `bg_${randomBytes(32).toString('base64url')}`;
    let tk: TestKernel;
    before(async () => {
      tk = await startKernel({
        plugins: PLUGINS,
        settings: {
          identity: { break_glass: { key_hash: `sha256:${createHash('sha256').update(key).digest('hex')}` } },
        },
      });
    });
    after(() => tk.close());

    const withKey = (value: string, reason?: string) => ({
      headers: { authorization: `BreakGlass ${value}`, ...(reason ? { 'x-break-glass-reason': reason } : {}) },
    });

    it('needs a reason (400) and the right key (401)', async () => {
      const noReason = await tk.request('GET', '/tenants', withKey(key));
      expect(noReason.status).to.equal(400);
      expect(noReason.body.error.message).to.include('X-Break-Glass-Reason');
      const wrong = await tk.request('GET', '/tenants', withKey(`${key}x`, 'incident 42'));
      expect(wrong.status).to.equal(401);
      expect(wrong.body.error.code).to.equal('invalid_credentials');
    });

    it('grants every permission and records every use, reads included, at critical severity', async () => {
      const read = await tk.request('GET', '/tenants', withKey(key, 'INC-42 database on fire'));
      expect(read.status, read.text).to.equal(200);
      const write = await tk.request('POST', '/components', {
        ...withKey(key, 'INC-42 restore service'),
        body: { type: 'passthrough', name: 'emergency' },
      });
      expect(write.status, write.text).to.equal(201);

      const records = await tk.kernel.database
        .knex('audit_records')
        .where({ credential_kind: 'break_glass' })
        .orderBy(['xact', 'id']);
      expect(records.map((r: { operation: string }) => r.operation)).to.deep.equal(['listTenants', 'createComponent']);
      for (const record of records) {
        expect(record.severity).to.equal('critical');
        expect(record.subject_id).to.equal('break-glass');
      }
      const detail = (r: { detail: unknown }) =>
        (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as Record<string, unknown>;
      expect(detail(records[0])).to.include({ break_glass: true, reason: 'INC-42 database on fire' });
      expect(detail(records[1])).to.include({ break_glass: true, reason: 'INC-42 restore service' });
      expect(records[0].status).to.equal(200);
      expect(JSON.stringify(records)).to.not.include(key);
    });
  });

  describe('API tokens minted with the key', () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const dataDir = onPostgres ? undefined : mkdtempSync(join(tmpdir(), 'break-glass-tokens-'));
    const database = onPostgres ? { url: process.env.DATABASE_URL as string, schema } : { data_dir: dataDir as string };
    const newKey = () => `bg_${randomBytes(32).toString('base64url')}`;
    const withKeyHash = (key: string) => ({
      plugins: PLUGINS,
      database,
      settings: { identity: { break_glass: { key_hash: `sha256:${createHash('sha256').update(key).digest('hex')}` } } },
    });
    after(() => {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('live by the key: refused once the key is rotated, accepted while it is configured', async function () {
      this.timeout(120_000);
      const key = newKey();
      let secret: string;
      let tk = await startKernel(withKeyHash(key), { schema });
      try {
        const minted = await tk.request('POST', '/api-tokens', {
          headers: {
            authorization: `BreakGlass ${key}`,
            'x-break-glass-reason': 'INC-7 automation',
            'x-service-tenant': 'default',
          },
          body: { name: 'incident automation', roles: ['viewer'] },
        });
        expect(minted.status, minted.text).to.equal(201);
        secret = minted.body.secret as string;
        const row = await tk.kernel.database
          .knex('identity_api_tokens')
          .where({ id: minted.body.token.id })
          .first('minter_kind', 'minter_id');
        expect(row.minter_kind).to.equal('break_glass');
        // A fingerprint of the key's hash, never the key.
        expect(row.minter_id).to.have.length(16);
        expect(createHash('sha256').update(key).digest('hex').startsWith(row.minter_id)).to.equal(true);
        expect((await tk.request('GET', '/components', { token: secret })).status).to.equal(200);
      } finally {
        await tk.close();
      }
      tk = await startKernel(withKeyHash(newKey()), { schema });
      try {
        const res = await tk.request('GET', '/components', { token: secret });
        expect(res.status, res.text).to.equal(401);
        expect(res.body.error.code).to.equal('invalid_credentials');
      } finally {
        await tk.close();
      }
    });
  });
});
