import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { connectDatabase } from '../../../../kernel/db/connect.js';
import { runMigrations } from '../../../../kernel/db/migrate.js';
import { createAudit } from '../../../../plugins/audit/migrations/001_audit.js';
import { GENESIS_HASH, canonicalContent, chainHash, type RecordContent } from '../../../../plugins/audit/chain.js';
import { onPostgres, startKernel } from '../../../support/kernel.js';
import { PLUGINS, as, headerAuthPlugin } from '../../../kernel/pipeline/helpers.js';
import { untilSealed } from '../../../support/sealed.js';

/** A record as the first version of the trail wrote it: chained in place, with seq, prev_hash and hash columns. */
function oldRecord(tenant: string, n: number): RecordContent {
  return {
    tenant_id: tenant,
    id: randomUUID(),
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    operation: 'createNote',
    method: 'POST',
    path: '/notes',
    resource_id: `n${n}`,
    status: 201,
    outcome: 'success',
    error_code: null,
    request_id: `r${n}`,
    idempotency_key: null,
    subject_id: 'alice',
    credential_kind: 'test',
    credential_id: null,
    actor_type: 'human',
    agent_id: null,
    actor_id: null,
    actor_email: null,
    fields: { id: `n${n}` },
    detail: {},
    severity: 'info',
    transport: 'http',
  };
}

describe('audit migration 002_audit_seals', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const dataDir = onPostgres ? undefined : mkdtempSync(join(tmpdir(), 'audit-migration-'));
  const database = onPostgres ? { url: process.env.DATABASE_URL as string, schema } : { data_dir: dataDir as string };
  after(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('moves chains written before it into seals, still valid, and new records chain on after them', async () => {
    const db = await connectDatabase({ pool_max: 2, ready_timeout_ms: 2000, ...database });
    let prev = GENESIS_HASH;
    try {
      await runMigrations(db.knex, [{ owner: 'audit', migrations: [createAudit] }]);
      for (let seq = 1; seq <= 3; seq++) {
        const content = oldRecord('legacy', seq);
        const hash = chainHash(prev, seq, canonicalContent(content));
        await db
          .knex('audit_records')
          .insert({ ...content, fields: JSON.stringify(content.fields), detail: '{}', seq, prev_hash: prev, hash });
        prev = hash;
      }
      await db.knex('audit_heads').insert({ tenant_id: 'legacy', seq: 3, hash: prev });
    } finally {
      await db.close();
    }

    const k = await startKernel({ plugins: PLUGINS, database }, { plugins: [headerAuthPlugin], schema });
    try {
      const auditor = as('auditor', 'legacy', ['runtime:audit:read']);
      const migrated = await untilSealed(() =>
        k.request('GET', '/audit/verify?tenant_id=legacy', { headers: auditor }),
      );
      expect(migrated.body).to.include({ valid: true, records: 3, unsealed: 0, first_broken: null });
      expect(migrated.body.head.hash).to.equal(prev);

      expect(
        (
          await k.request('POST', '/notes', {
            body: { id: 'after', title: 'After the move' },
            headers: as('alice', 'legacy'),
          })
        ).status,
      ).to.equal(201);
      const extended = await untilSealed(() =>
        k.request('GET', '/audit/verify?tenant_id=legacy', { headers: auditor }),
      );
      expect(extended.body).to.include({ valid: true, records: 4, unsealed: 0 });
      const list = await k.request('GET', '/audit', { headers: auditor });
      expect(list.body.items.map((r: { resource_id: string }) => r.resource_id)).to.deep.equal([
        'after',
        'n3',
        'n2',
        'n1',
      ]);
      expect(list.body.items[1]).to.include({ seq: 3, hash: prev });
    } finally {
      await k.close();
    }
  });
});
