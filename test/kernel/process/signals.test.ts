import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE } from '../../../kernel/db/data-dir-lock.js';
import { fromRoot } from '../../../kernel/paths.js';
import { request } from '../../support/kernel.js';
import {
  answers,
  freshDataDir,
  killIfRunning,
  localEnv,
  running,
  spawnProcess,
  untilServing,
} from '../../support/process.js';
import { until } from '../../support/poll.js';

/**
 * How the server stops under the ways it is run: `npm start` (npm → shell → node), a shell that
 * does not forward signals, and node itself. "Stops" means: the port no longer answers, the
 * node process is gone and it logged that it drained.
 */
describe('stopping the server process', function () {
  this.timeout(180000);
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) killIfRunning(pid);
  });

  async function stopped(url: string, pid: number): Promise<void> {
    await until(async () => !running(pid) && !(await answers(url)), 20000, {
      what: `node (pid ${pid}) still runs or ${url} still answers`,
    });
  }

  it('SIGTERM to the `npm start` process drains the server and ends the whole process tree', async () => {
    const npm = spawnProcess('npm', ['start'], localEnv('memory'));
    if (npm.child.pid !== undefined) started.push(npm.child.pid);
    const server = await untilServing(npm);
    started.push(server.pid);
    expect((await request(server.url, 'GET', '/ready')).status).to.equal(200);

    npm.child.kill('SIGTERM');
    expect(await npm.exited).to.equal(0);
    await stopped(server.url, server.pid);
    expect(server.output()).to.include('"signal":"SIGTERM","msg":"draining"');
  });

  it('stops the server when its npm process is killed outright (SIGKILL), releasing the data directory', async () => {
    const dataDir = freshDataDir();
    const npm = spawnProcess('npm', ['start'], localEnv(dataDir));
    if (npm.child.pid !== undefined) started.push(npm.child.pid);
    const server = await untilServing(npm);
    started.push(server.pid);

    npm.child.kill('SIGKILL');
    await npm.exited;
    await stopped(server.url, server.pid);
    expect(existsSync(join(dataDir, LOCK_FILE))).to.equal(false);
  });

  it('stops the server when the shell npm runs it in dies without forwarding the signal', async () => {
    // What `npm start` did before its script execed node: npm signals the shell (dash), which
    // dies and leaves node behind. `; exit $?` keeps any shell from exec'ing node itself.
    const shell = spawnProcess(
      'sh',
      ['-c', `"${process.execPath}" kernel/start.mjs; exit $?`],
      localEnv('memory', { npm_lifecycle_event: 'start' }),
    );
    if (shell.child.pid !== undefined) started.push(shell.child.pid);
    const server = await untilServing(shell);
    started.push(server.pid);
    expect(server.pid).to.not.equal(shell.child.pid);

    shell.child.kill('SIGTERM');
    await stopped(server.url, server.pid);
    expect(server.output()).to.include('the npm process that started the server');
    expect(server.output()).to.include('"msg":"draining"');
  });

  it('SIGINT sent to node itself drains and exits 0', async () => {
    const node = spawnProcess(process.execPath, [fromRoot('dist', 'kernel', 'main.js')], localEnv('memory'));
    const server = await untilServing(node);
    started.push(server.pid);
    node.child.kill('SIGINT');
    expect(await node.exited).to.equal(0);
    expect(server.output()).to.include('"signal":"SIGINT","msg":"draining"');
    expect(await answers(server.url)).to.equal(false);
  });

  it('SIGTERM while the server boots stops it once the boot is done, without serving, exit 0', async () => {
    const dataDir = freshDataDir();
    const node = spawnProcess(process.execPath, [fromRoot('dist', 'kernel', 'main.js')], localEnv(dataDir));
    if (node.child.pid !== undefined) started.push(node.child.pid);
    // The lock file appears when the boot opens the database: the process is inside the boot.
    // Watched closely: what is left of the boot after it (PGlite's start, set-up) takes a few
    // hundred milliseconds, which a 100 ms poll plus a busy machine could let run out.
    await until(() => existsSync(join(dataDir, LOCK_FILE)), 60000, { everyMs: 5 });
    node.child.kill('SIGTERM');
    expect(await node.exited, node.output()).to.equal(0);
    expect(node.output()).to.include('"signal":"SIGTERM","msg":"draining"');
    expect(node.output()).to.not.include('"msg":"serving"');
    expect(existsSync(join(dataDir, LOCK_FILE))).to.equal(false);
  });
});
