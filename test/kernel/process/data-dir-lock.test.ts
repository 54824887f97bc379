import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE } from '../../../kernel/db/data-dir-lock.js';
import { fromRoot } from '../../../kernel/paths.js';
import { request } from '../../support/kernel.js';
import {
  freshDataDir,
  killIfRunning,
  localEnv,
  spawnProcess,
  startNode,
  type RunningServer,
} from '../../support/process.js';

const PASSWORD = 'process-test-password-1';

async function loginAsAdmin(server: RunningServer): Promise<string> {
  const res = await request(server.url, 'POST', '/auth/login', {
    body: { tenant_id: 'default', username: 'admin', password: PASSWORD },
  });
  expect(res.status, res.text).to.equal(200);
  return res.body.access_token as string;
}

describe('one server process per data directory (local profile, embedded database)', function () {
  this.timeout(180000);
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) killIfRunning(pid);
  });

  it('refuses a second server on the same data directory with one line naming the first, exit code 3, and the first keeps serving', async () => {
    const dataDir = freshDataDir();
    const first = await startNode(dataDir);
    started.push(first.pid);
    const token = await loginAsAdmin(first);
    expect(
      (
        await request(first.url, 'POST', '/components', {
          token,
          body: { type: 'passthrough', id: 'kept', name: 'Kept' },
        })
      ).status,
    ).to.equal(201);

    const second = spawnProcess(process.execPath, [fromRoot('dist', 'kernel', 'main.js')], localEnv(dataDir));
    if (second.child.pid !== undefined) started.push(second.child.pid);
    expect(await second.exited).to.equal(3);
    const lines = second.output().trim().split('\n');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(
      new RegExp(
        `^runtime kernel refused to start: the data directory .+ is in use by another runtime process \\(pid ${first.pid} on .+\\); stop that process first, or delete .+${LOCK_FILE.replace(/\./g, '\\.')} if it no longer runs$`,
      ),
    );

    const kept = await request(first.url, 'GET', '/components/kept', { token });
    expect(kept.status).to.equal(200);
    expect(kept.body.name).to.equal('Kept');
    expect((await request(first.url, 'GET', '/ready')).status).to.equal(200);
  });

  it('starts over a lock left by a killed server (its pid is gone), with the data it wrote, and removes the lock on SIGTERM', async () => {
    const dataDir = freshDataDir();
    const killed = await startNode(dataDir);
    started.push(killed.pid);
    const token = await loginAsAdmin(killed);
    expect(
      (
        await request(killed.url, 'POST', '/components', {
          token,
          body: { type: 'passthrough', id: 'before-kill', name: 'Before the kill' },
        })
      ).status,
    ).to.equal(201);
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(existsSync(join(dataDir, LOCK_FILE)), 'SIGKILL leaves the lock file behind').to.equal(true);

    const next = await startNode(dataDir);
    started.push(next.pid);
    const again = await loginAsAdmin(next);
    const kept = await request(next.url, 'GET', '/components/before-kill', { token: again });
    expect(kept.status).to.equal(200);
    expect(kept.body.name).to.equal('Before the kill');

    next.child.kill('SIGTERM');
    expect(await next.exited).to.equal(0);
    expect(existsSync(join(dataDir, LOCK_FILE))).to.equal(false);
  });
});
