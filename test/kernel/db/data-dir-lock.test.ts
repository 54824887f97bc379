import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectDatabase } from '../../../kernel/db/connect.js';
import { DataDirInUseError, FOREIGN_STALE_MS, LOCK_FILE, lockDataDir } from '../../../kernel/db/data-dir-lock.js';
import { fromRoot } from '../../../kernel/paths.js';
import { freshDataDir } from '../../support/process.js';
import { until } from '../../support/poll.js';

const onLinux = existsSync('/proc/sys/kernel/random/boot_id');

/** A lock file as a process that was then killed left it: the real thing, not a hand-written one. */
function lockLeftByKilledProcess(dir: string): Record<string, unknown> {
  const script = `import(${JSON.stringify(fromRoot('dist', 'kernel', 'db', 'data-dir-lock.js'))}).then((m) => { m.lockDataDir(${JSON.stringify(dir)}); process.kill(process.pid, 'SIGKILL'); });`;
  const result = spawnSync(process.execPath, ['-e', script]);
  expect(result.signal).to.equal('SIGKILL');
  return JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as Record<string, unknown>;
}

function rewriteLock(dir: string, changes: Record<string, unknown>): void {
  const current = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, LOCK_FILE), `${JSON.stringify({ ...current, ...changes })}\n`);
}

describe('data directory lock', () => {
  it('refuses a second holder in the same process until the first releases, then lets it in', () => {
    const dir = freshDataDir();
    const first = lockDataDir(dir);
    expect(() => lockDataDir(dir)).to.throw(DataDirInUseError, `pid ${process.pid}`);
    first.release();
    expect(existsSync(join(dir, LOCK_FILE))).to.equal(false);
    const second = lockDataDir(dir);
    second.release();
    first.release();
  });

  it('takes over a lock whose process was killed', () => {
    const dir = freshDataDir();
    const left = lockLeftByKilledProcess(dir);
    const lock = lockDataDir(dir);
    const now = JSON.parse(readFileSync(lock.file, 'utf8')) as Record<string, unknown>;
    expect(now.pid).to.equal(process.pid);
    expect(now.token).to.not.equal(left.token);
    lock.release();
    expect(readdirSync(dir), 'no draft or reclaim file is left behind').to.deep.equal([]);
  });

  it('refuses a lock held by a process that still runs, naming it', async () => {
    const dir = freshDataDir();
    lockLeftByKilledProcess(dir);
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await new Promise((resolve) => sleeper.once('spawn', resolve));
      const pid = sleeper.pid as number;
      const start = onLinux ? (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19] ?? null) : null;
      rewriteLock(dir, { pid, start });
      expect(() => lockDataDir(dir)).to.throw(DataDirInUseError, `pid ${pid} on`);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('honours a lock from another host or container while its process refreshes it, and takes it over once it stops', () => {
    const dir = freshDataDir();
    for (const elsewhere of [{ host: 'another-host' }, { pidns: 'pid:[1]' }]) {
      lockLeftByKilledProcess(dir);
      rewriteLock(dir, elsewhere);
      expect(() => lockDataDir(dir)).to.throw(
        DataDirInUseError,
        `taken over once ${FOREIGN_STALE_MS / 1000} s pass without its process refreshing it`,
      );
      const longAgo = new Date(Date.now() - FOREIGN_STALE_MS - 1000);
      utimesSync(join(dir, LOCK_FILE), longAgo, longAgo);
      lockDataDir(dir).release();
    }
  });

  it('keeps its lock file fresh while it holds it', async () => {
    const lock = lockDataDir(freshDataDir());
    try {
      const longAgo = new Date(Date.now() - FOREIGN_STALE_MS - 1000);
      utimesSync(lock.file, longAgo, longAgo);
      await until(() => Date.now() - statSync(lock.file).mtimeMs < FOREIGN_STALE_MS, 15000);
    } finally {
      lock.release();
    }
  });

  it('takes over a lock whose pid now belongs to another process (other start time) or was written before a reboot', function () {
    if (!onLinux) this.skip();
    const dir = freshDataDir();
    lockLeftByKilledProcess(dir);
    rewriteLock(dir, { pid: process.ppid, start: '1' });
    lockDataDir(dir).release();

    lockLeftByKilledProcess(dir);
    rewriteLock(dir, { pid: process.ppid, boot: 'another-boot' });
    lockDataDir(dir).release();
  });

  it('release leaves alone a lock file that is no longer its own', () => {
    const dir = freshDataDir();
    const lock = lockDataDir(dir);
    writeFileSync(lock.file, '{"pid":1,"host":"elsewhere","token":"theirs"}\n');
    lock.release();
    expect(readFileSync(lock.file, 'utf8')).to.include('"theirs"');
  });

  it('is taken by the embedded database on a directory, released on close, and not needed in memory', async () => {
    const dir = freshDataDir();
    const settings = { pool_max: 1, ready_timeout_ms: 2000 };
    const first = await connectDatabase({ ...settings, data_dir: dir });
    let refused: unknown;
    await connectDatabase({ ...settings, data_dir: dir }).catch((err: unknown) => (refused = err));
    expect(refused).to.be.instanceOf(DataDirInUseError);
    await first.knex.raw('select 1');
    await first.close();
    expect(existsSync(join(dir, LOCK_FILE))).to.equal(false);
    const second = await connectDatabase({ ...settings, data_dir: dir });
    await second.close();

    const memoryA = await connectDatabase({ ...settings, data_dir: 'memory' });
    const memoryB = await connectDatabase({ ...settings, data_dir: 'memory' });
    await Promise.all([memoryA.close(), memoryB.close()]);
  });
});
