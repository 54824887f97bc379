import { expect } from 'chai';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { PROJECT_ROOT } from '../../../kernel/paths.js';
import { request, onPostgres } from '../../support/kernel.js';
import { freshDataDir, killIfRunning, spawnProcess, untilServing, type RunningServer } from '../../support/process.js';
import { freshDatabase } from './database.js';
import { openTask, simpleUserTaskXml, timerXml } from './fixtures.js';

/**
 * kill -9 of a kernel process between a wait and its continuation: nothing is lost, and the next
 * process (on the same PostgreSQL database, or the same PGlite data directory) continues.
 */
describe('bpmn: an instance survives a SIGKILL of its kernel process', function () {
  this.timeout(240_000);
  let pid: number | undefined;
  let database: { url: string; drop(): Promise<void> } | undefined;
  const dataDir = freshDataDir();

  const spawnKernel = async (): Promise<RunningServer> => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      RUNTIME_PROFILE: 'local',
      RUNTIME_AUTH_MODE: 'none',
      RUNTIME_LOG_LEVEL: 'info',
      RUNTIME_PLUGINS: 'system,audit,logs,streams,bpmn',
      RUNTIME_DATA_DIR: dataDir,
    };
    if (database) env.DATABASE_URL = database.url;
    else delete env.DATABASE_URL;
    const server = await untilServing(
      spawnProcess(process.execPath, [join(PROJECT_ROOT, 'dist', 'kernel', 'main.js')], env),
    );
    pid = server.pid;
    return server;
  };
  const kill = async (server: RunningServer): Promise<void> => {
    process.kill(server.pid, 'SIGKILL');
    await server.exited;
    pid = undefined;
  };

  before(async () => {
    if (onPostgres) database = await freshDatabase();
  });
  after(async () => {
    killIfRunning(pid);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('continues a user task and fires a timer that came due while killed', async () => {
    let server = await spawnKernel();
    const call = (method: string, path: string, options: Parameters<typeof request>[3] = {}) =>
      request(server.url, method, path, options);
    expect(
      (
        await call('POST', '/bpmn/definitions', {
          raw: simpleUserTaskXml('killed-task'),
          contentType: 'application/octet-stream',
        })
      ).status,
    ).to.equal(201);
    expect(
      (
        await call('POST', '/bpmn/definitions', {
          raw: timerXml('killed-timer', 'PT2S'),
          contentType: 'application/octet-stream',
        })
      ).status,
    ).to.equal(201);
    const task = (await call('POST', '/bpmn/instances', { body: { process_id: 'killed-task', variables: { a: 1 } } }))
      .body;
    const timer = (await call('POST', '/bpmn/instances', { body: { process_id: 'killed-timer' } })).body;
    expect(task.state).to.equal('active');
    expect(timer.activities[0]).to.include({ activity_id: 'wait', kind: 'timer' });
    await kill(server);
    await new Promise((r) => setTimeout(r, 2500));

    server = await spawnKernel();
    const done = await call('POST', `/bpmn/tasks/${openTask(task, 'task')}/complete`, {
      body: { variables: { b: 2 } },
    });
    expect(done.status, done.text).to.equal(200);
    expect(done.body.state).to.equal('completed');
    expect(done.body.variables).to.deep.equal({ a: 1, b: 2 });
    const deadline = Date.now() + 30_000;
    let now: any;
    do {
      await new Promise((r) => setTimeout(r, 200));
      now = (await call('GET', `/bpmn/instances/${timer.id}`)).body;
    } while (now.activities?.[0]?.activity_id !== 'after' && Date.now() < deadline);
    expect(now.activities[0]).to.include({ activity_id: 'after', kind: 'user_task' });
    expect(now.history.filter((h: any) => h.activity_id === 'wait')).to.have.length(1);
    await kill(server);
  });
});
