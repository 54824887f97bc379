import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { openEmbedded } from '../../../kernel/db/embedded.js';
import { memoryArchiveFile, memoryTemplate } from '../../../kernel/db/memory-templates.js';

describe('embedded database in memory: the migrated archive', function () {
  this.timeout(120_000);
  const key = `${randomBytes(8).toString('hex')}`;
  after(() => rmSync(memoryArchiveFile(key), { force: true }));

  it('keeps the first migrated cluster of a migration set as an archive, and loads the next database in memory from it', async () => {
    expect(memoryTemplate(key), 'no archive before the first start').to.equal(undefined);
    const first = await openEmbedded(undefined, key);
    expect(first.keepMigrated, 'a new database offers to keep itself').to.be.a('function');
    try {
      await first.pglite.exec('CREATE TABLE migrated (id int PRIMARY KEY); INSERT INTO migrated VALUES (1)');
      await first.keepMigrated?.();
      // Written after the archive was kept: no part of it.
      await first.pglite.exec('INSERT INTO migrated VALUES (3)');
    } finally {
      await first.pglite.close();
    }
    expect(memoryTemplate(key), 'the archive is kept under its key').to.be.instanceOf(Buffer);
    expect(statSync(memoryArchiveFile(key)).size, 'kept compressed').to.be.below(8_000_000);

    const second = await openEmbedded(undefined, key);
    try {
      expect(second.keepMigrated, 'nothing to keep: it came from the archive').to.equal(undefined);
      expect((await second.pglite.query('SELECT id FROM migrated')).rows).to.deep.equal([{ id: 1 }]);
      await second.pglite.exec('INSERT INTO migrated VALUES (2)');
    } finally {
      await second.pglite.close();
    }
    const third = await openEmbedded(undefined, key);
    try {
      expect((await third.pglite.query('SELECT id FROM migrated ORDER BY id')).rows).to.deep.equal([{ id: 1 }]);
    } finally {
      await third.pglite.close();
    }
  });

  it('keeps nothing for a database in memory opened without a migration key', async () => {
    const unkeyed = await openEmbedded(undefined);
    try {
      expect(unkeyed.keepMigrated).to.equal(undefined);
      expect(
        (await unkeyed.pglite.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'migrated'")).rows,
      ).to.deep.equal([{ n: 0 }]);
    } finally {
      await unkeyed.pglite.close();
    }
  });

  it('removes a damaged archive and migrates as if none were kept', async () => {
    const damaged = `${key}0`;
    writeFileSync(memoryArchiveFile(damaged), 'not an archive');
    try {
      expect(memoryTemplate(damaged)).to.equal(undefined);
      expect(() => statSync(memoryArchiveFile(damaged)), 'removed').to.throw();
      const opened = await openEmbedded(undefined, damaged);
      try {
        expect(opened.keepMigrated, 'a new database offers to keep itself').to.be.a('function');
      } finally {
        await opened.pglite.close();
      }
    } finally {
      rmSync(memoryArchiveFile(damaged), { force: true });
    }
  });
});
