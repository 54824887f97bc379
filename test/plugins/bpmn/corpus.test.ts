import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';

/** The BPMN MIWG reference suite: models nobody on the project wrote (see its SOURCE.md). */
const CORPUS = '/work/shared/corpus/bpmn-miwg';
const files = existsSync(CORPUS) ? readdirSync(CORPUS).filter((f) => f.endsWith('.bpmn')) : [];

describe('bpmn: the MIWG reference models deploy and run', function () {
  this.timeout(300_000);
  let tk: TestKernel;
  const deployed = new Map<string, any>();
  before(async function () {
    if (files.length === 0) {
      console.log(`      (skipped: no BPMN corpus at ${CORPUS})`);
      this.skip();
    }
    tk = await startKernel({ plugins: ['system', 'audit', 'logs', 'streams', 'bpmn'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  it('deploys at least 90% of them, and each refusal names an unsupported element with its id and line', async () => {
    const refused: string[] = [];
    for (const file of files) {
      const res = await tk.request('POST', '/bpmn/definitions', {
        raw: readFileSync(`${CORPUS}/${file}`),
        contentType: 'application/octet-stream',
      });
      if (res.status === 201) {
        deployed.set(file, res.body);
        expect(res.body.definitions.length, file).to.be.greaterThan(0);
        continue;
      }
      expect(res.status, `${file}: ${res.text}`).to.equal(400);
      expect(res.body.error.message, file).to.match(
        /<bpmn:[A-Za-z]+> "[^"]+" is not supported by this runtime.*\(line \d+\)/,
      );
      refused.push(`${file}: ${res.body.error.message}`);
    }
    console.log(`      ${deployed.size} of ${files.length} deployed; refused: ${refused.join('; ') || 'none'}`);
    expect(deployed.size / files.length).to.be.at.least(0.9);
  });

  it("keeps a collaboration's pools as definitions of one deployment and decodes ISO-8859-1", async () => {
    const collaboration = deployed.get('A.4.0.bpmn');
    expect(collaboration.definitions.map((d: any) => d.process_id).sort()).to.deep.equal(['WFP-6-1', 'WFP-6-2']);
    expect(new Set(collaboration.definitions.map((d: any) => d.deployment)).size).to.equal(1);
    // Not executable: viewable, not startable.
    expect(collaboration.definitions.every((d: any) => d.executable === false)).to.equal(true);
    const start = await tk.request('POST', '/bpmn/instances', { body: { process_id: 'WFP-6-1' } });
    expect(start.status, start.text).to.equal(409);
    expect(start.body.error.message).to.match(/not executable/);
    const xml = await tk.request('GET', `/bpmn/definitions/${collaboration.key}/xml`);
    expect(xml.text).to.match(/^<\?xml version="1.0" encoding="UTF-8"/);
    const original = readFileSync(`${CORPUS}/A.4.0.bpmn`).toString('latin1');
    const accented = /[\u00c0-\u00ff]/.exec(original)?.[0];
    if (accented) expect(xml.text).to.include(accented);
  });

  it('runs each executable process to its end or a documented wait, its user tasks and jobs completed through the API', async () => {
    // What the models' gateways read on their happy path (Camunda's JUEL, Zeebe's and Trisotech's FEEL).
    const happy = {
      approved: true,
      clarified: 'yes',
      fraud: false,
      riskLevels: ['green'],
      'Vacation Approval': 'Approved',
    };
    const outcomes: string[] = [];
    for (const [file, deployment] of deployed) {
      for (const definition of deployment.definitions.filter((d: any) => d.executable)) {
        const started = await tk.request('POST', '/bpmn/instances', {
          body: { key: definition.key, variables: happy, business_key: `corpus-${file}` },
        });
        expect(started.status, `${file} ${definition.process_id}: ${started.text}`).to.equal(201);
        const id = started.body.id;
        let instance = (await tk.request('GET', `/bpmn/instances/${id}`)).body;
        for (let step = 0; step < 40 && instance.state === 'active'; step++) {
          const tasks = instance.tasks.filter((t: any) => t.state === 'open');
          const jobs = instance.activities.filter((a: any) => a.kind === 'job' && a.state === 'open');
          if (tasks.length === 0 && jobs.length === 0) break;
          for (const task of tasks) {
            const done = await tk.request('POST', `/bpmn/tasks/${task.id}/complete`, { body: { variables: happy } });
            expect(done.status, `${file} ${task.activity_id}: ${done.text}`).to.equal(200);
          }
          for (const wait of jobs) {
            const fetched = await tk.request('POST', '/bpmn/jobs/fetch-and-lock', {
              body: { worker_id: 'corpus', types: [wait.type], max_jobs: 100 },
            });
            for (const job of fetched.body.items) {
              const done = await tk.request('POST', `/bpmn/jobs/${job.id}/complete`, {
                body: { worker_id: 'corpus', variables: happy },
              });
              expect(done.status, `${file} job ${job.activity_id}: ${done.text}`).to.equal(200);
            }
          }
          instance = (await tk.request('GET', `/bpmn/instances/${id}`)).body;
        }
        const waits = instance.activities.map((a: any) => `${a.kind}:${a.activity_id}`);
        outcomes.push(
          `${file} ${definition.process_id}: ${instance.state}${waits.length ? ` waiting at ${waits.join(', ')}` : ''}`,
        );
        expect(instance.state, `${file} ${definition.process_id}: ${JSON.stringify(instance.incidents)}`).to.not.equal(
          'incident',
        );
        // Completed, or waiting where only time or another party moves it on (the documented waits).
        if (instance.state !== 'completed')
          for (const a of instance.activities)
            expect(['timer', 'message', 'signal', 'call'], `${file}: ${JSON.stringify(a)}`).to.include(a.kind);
      }
    }
    console.log(`      ${outcomes.join('\n      ')}`);
    expect(outcomes.length).to.be.at.least(6);
  });

  it("lists other vendors' extensions as warnings", async () => {
    const zeebe = deployed.get('C.9.0.bpmn');
    expect(zeebe.warnings.join('\n')).to.match(/zeebe:ioMapping/);
    expect(zeebe.warnings.join('\n')).to.not.match(/zeebe:taskDefinition/);
  });
});
