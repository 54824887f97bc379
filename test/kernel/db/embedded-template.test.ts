import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  migratedTemplates,
  openEmbedded,
  stageNewestTemplate,
  templateWorkSettled,
} from '../../../kernel/db/embedded.js';
import { freshDataDir } from '../../support/process.js';

describe('embedded database: the migrated template', function () {
  this.timeout(180_000);
  const key = `test${randomBytes(6).toString('hex')}`;
  const kept = (): string | undefined => migratedTemplates().find((path) => path.endsWith(`-migrated-${key}`));
  after(() => {
    const dir = kept();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the first migrated cluster of a migration set, and starts the next fresh data dir from it', async () => {
    const first = freshDataDir();
    const opened = await openEmbedded(first, key);
    expect(opened.keepMigrated, 'a new cluster offers to keep itself').to.be.a('function');
    try {
      await opened.pglite.exec('CREATE TABLE migrated (id int PRIMARY KEY); INSERT INTO migrated VALUES (1)');
      await opened.keepMigrated?.();
    } finally {
      await opened.pglite.close();
    }
    // Its recovery and rename finish in the background; a database's close waits for them.
    await templateWorkSettled();
    const template = kept();
    expect(template, 'the template is kept under its key').to.be.a('string');
    // The running cluster's own files are not part of it.
    expect(existsSync(join(template as string, 'postmaster.pid'))).to.equal(false);
    expect(existsSync(join(template as string, '.runtime.lock'))).to.equal(false);

    const second = freshDataDir();
    const reopened = await openEmbedded(second, key);
    try {
      expect(reopened.keepMigrated, 'nothing to keep: it came from the template').to.equal(undefined);
      expect((await reopened.pglite.query('SELECT id FROM migrated')).rows).to.deep.equal([{ id: 1 }]);
      // Its own cluster: a write here is not in the template.
      await reopened.pglite.exec('INSERT INTO migrated VALUES (2)');
    } finally {
      await reopened.pglite.close();
    }
    const third = await openEmbedded(freshDataDir(), key);
    try {
      expect((await third.pglite.query('SELECT id FROM migrated ORDER BY id')).rows).to.deep.equal([{ id: 1 }]);
    } finally {
      await third.pglite.close();
    }
  });

  const staging = (dir: string): string[] => readdirSync(dir).filter((name) => name.startsWith('.staging-'));

  it('copies the template used last into a new data dir before the key is known, and takes that copy when the key names it', async () => {
    // The test above used the template of `key` last.
    const dir = freshDataDir();
    stageNewestTemplate(dir);
    expect(staging(dir), 'a copy is under way in a staging folder').to.have.length(1);
    expect(existsSync(join(dir, 'PG_VERSION')), 'not a cluster before the key names it').to.equal(false);
    const opened = await openEmbedded(dir, key);
    try {
      expect(opened.keepMigrated).to.equal(undefined);
      expect((await opened.pglite.query('SELECT id FROM migrated')).rows).to.deep.equal([{ id: 1 }]);
    } finally {
      await opened.pglite.close();
    }
    expect(staging(dir), 'the staging folder is gone').to.deep.equal([]);
  });

  it('discards a staged copy of another migration set', async () => {
    const dir = freshDataDir();
    stageNewestTemplate(dir);
    const opened = await openEmbedded(dir, `${key}-unkept`);
    try {
      expect((await opened.pglite.query("SELECT to_regclass('migrated') IS NOT NULL AS present")).rows).to.deep.equal([
        { present: false },
      ]);
    } finally {
      await opened.pglite.close();
    }
    // Removed in the background once its copy is done.
    for (let i = 0; i < 200 && staging(dir).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(staging(dir)).to.deep.equal([]);
  });

  it('reopens an existing data dir as it is, whatever the key', async () => {
    const dir = freshDataDir();
    const opened = await openEmbedded(dir, `${key}-other`);
    try {
      await opened.pglite.exec('CREATE TABLE own (id int)');
    } finally {
      await opened.pglite.close();
    }
    const again = await openEmbedded(dir, key);
    try {
      expect(again.keepMigrated).to.equal(undefined);
      expect((await again.pglite.query("SELECT to_regclass('own') IS NOT NULL AS present")).rows).to.deep.equal([
        { present: true },
      ]);
    } finally {
      await again.pglite.close();
    }
  });
});
