import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { type ConsoleHarness, unique, visible, consoleOrSkip } from './support/browser.js';

/**
 * Journeys through the pages of the studio, BPMN, alerts, logs, audit, identity, promotion, SQL
 * console and API browser, in Debian's Chromium against a real kernel. Data is seeded through
 * the API with unique names; locators go by role and label; nothing sleeps a fixed time.
 */

/** Runs axe on the page as it is and returns the violations, each prefixed with where. */
async function axeHere(page: Page, where: string): Promise<string[]> {
  return (await axeViolations(page)).map((v) => `${where}: ${v}`);
}

/** A BPMN process with one user task between its start and end, drawn (diagram interchange included). */
function approvalXml(processId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" id="defs" targetNamespace="http://example.com/console">
  <process id="${processId}" name="Approval ${processId}" isExecutable="true">
    <startEvent id="start" name="Asked" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <userTask id="review" name="Review" />
    <sequenceFlow id="f2" sourceRef="review" targetRef="end" />
    <endEvent id="end" name="Decided" />
  </process>
  <bpmndi:BPMNDiagram id="diagram">
    <bpmndi:BPMNPlane id="plane" bpmnElement="${processId}">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="100" y="100" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="review_di" bpmnElement="review"><dc:Bounds x="200" y="78" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="360" y="100" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1"><di:waypoint x="136" y="118" /><di:waypoint x="200" y="118" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f2_di" bpmnElement="f2"><di:waypoint x="300" y="118" /><di:waypoint x="360" y="118" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>`;
}

/** A process that runs straight from start to end (it logs its completion). */
function straightXml(processId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" id="defs" targetNamespace="http://example.com/console">
  <process id="${processId}" isExecutable="true">
    <startEvent id="start" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="end" />
    <endEvent id="end" />
  </process>
</definitions>`;
}

describe('console pages in a real browser: studio, BPMN, operations and governance', function () {
  this.timeout(120_000);
  let h: ConsoleHarness;

  before(async function () {
    h = await consoleOrSkip(this, {
      settings: { components: { supervisor_interval_ms: 200 }, alerts: { evaluation_interval_ms: 300 } },
    });
  });

  after(async () => {
    await h?.close();
  });

  afterEach(() => {
    h?.assertCleanConsole();
  });

  it('BPMN: a model uploaded, started, its task completed from the inbox, and the diagram shows the path taken', async () => {
    const processId = unique('approval');
    const { page } = await h.signedInPage('admin', '/console/bpmn');
    await visible(page, page.getByRole('heading', { name: 'BPMN definitions', level: 1 }), 'the definitions page');
    await page.getByLabel('BPMN 2.0 file').setInputFiles({
      name: `${processId}.bpmn`,
      mimeType: 'application/xml',
      buffer: Buffer.from(approvalXml(processId)),
    });
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await visible(
      page,
      page.getByRole('heading', { name: `Definition ${processId} version 1` }),
      'the deployed definition',
    );
    // The definition's own diagram is drawn by bpmn-js (its chunk loaded on demand).
    await visible(page, page.locator('[data-element-id="review"]'), 'the user task in the definition diagram');

    await page.getByLabel('Business key').fill(`order-${processId}`);
    await page.getByLabel('Variables (JSON object)').fill('{"amount": 120}');
    await page.getByRole('button', { name: 'Start instance' }).click();
    await visible(page, page.getByRole('heading', { name: /^Instance bpi_/ }), 'the started instance');
    const instanceId = new URL(page.url()).pathname.split('/').pop() as string;
    await visible(page, page.locator('[data-element-id="review"].rt-active'), 'the waiting user task marked active');

    await page.getByRole('navigation', { name: 'BPMN views' }).getByRole('link', { name: 'Task inbox' }).click();
    await page.getByRole('link', { name: `Open task Review of ${instanceId}` }).click();
    await page.getByLabel('Variables to complete with (JSON object)').fill('{"approved": true}');
    await page.getByRole('button', { name: 'Complete task' }).click();
    const dialog = page.getByRole('dialog');
    await visible(page, dialog.getByText('the server would answer 200'), 'the dry run of the completion');
    await dialog.getByRole('button', { name: 'Confirm: Complete task' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.goto(`/console/bpmn/instances/${instanceId}`);
    await visible(page, page.locator('.page-header .badge', { hasText: 'completed' }), 'the completed state');
    expect(await page.getByTestId('path-taken').textContent()).to.equal('start → review → end');
    // Shapes and the flows between them (a straight flow has no height, so it is checked as present, not visible).
    for (const element of ['start', 'f1', 'review', 'f2', 'end'])
      await page.locator(`[data-element-id="${element}"].rt-completed`).waitFor({ state: 'attached', timeout: 15_000 });
    expect(await page.locator('.rt-active, .rt-incident').count()).to.equal(0);
    await page.getByRole('link', { name: 'Variables' }).click();
    await visible(page, page.getByText('"approved": true'), 'the variables after completion');
    const instance = await h.api('GET', `/bpmn/instances/${instanceId}`);
    expect(instance.body.state).to.equal('completed');
    expect(instance.body.variables).to.deep.equal({ amount: 120, approved: true });

    const problems = await axeHere(page, 'bpmn instance');
    await page.getByRole('navigation', { name: 'BPMN views' }).getByRole('link', { name: 'Task inbox' }).click();
    await visible(page, page.getByRole('heading', { name: 'Task inbox', level: 1 }), 'the inbox');
    problems.push(...(await axeHere(page, 'bpmn task inbox')));
    for (const [link, heading] of [
      ['Instances', 'BPMN instances'],
      ['Incidents', 'BPMN incidents'],
      ['Messages and signals', 'Messages and signals'],
    ]) {
      await page.getByRole('navigation', { name: 'BPMN views' }).getByRole('link', { name: link }).click();
      await visible(page, page.getByRole('heading', { name: heading, level: 1 }), heading);
      problems.push(...(await axeHere(page, heading)));
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('Studio: two browsers edit one file at once and each sees the other, with presence; the terminal answers', async () => {
    const workspace = await h.api('POST', '/studio/workspaces', {
      body: { name: unique('pair'), files: { 'main.js': 'result = 1;\n' } },
    });
    expect(workspace.status).to.equal(201);
    const path = `/console/studio/${workspace.body.id}?file=main.js`;
    const a = await h.signedInPage('admin', path);
    const b = await h.signedInPage('builder', path);
    const editorA = a.page.getByRole('textbox', { name: 'Editor for main.js' });
    const editorB = b.page.getByRole('textbox', { name: 'Editor for main.js' });
    await visible(a.page, editorA.filter({ hasText: 'result = 1;' }), 'the seeded file in the first editor');
    await visible(b.page, editorB.filter({ hasText: 'result = 1;' }), 'the seeded file in the second editor');

    await editorA.click();
    await a.page.keyboard.press('Control+End');
    await a.page.keyboard.type('// typed in A');
    await editorB.click();
    await b.page.keyboard.press('Control+Home');
    await b.page.keyboard.type('// typed in B\n');
    for (const [page, editor] of [
      [a.page, editorA],
      [b.page, editorB],
    ] as const) {
      await visible(
        page,
        editor.filter({ hasText: 'typed in A' }).filter({ hasText: 'typed in B' }),
        'both edits in one editor',
      );
    }
    // Presence: each page names the other editor.
    await visible(
      a.page,
      a.page.getByRole('list', { name: 'Other editors' }).getByText(h.credentials.builder.username),
      'the builder in the admin’s presence list',
    );
    await visible(
      b.page,
      b.page.getByRole('list', { name: 'Other editors' }).getByText(h.credentials.admin.username),
      'the admin in the builder’s presence list',
    );

    await a.page.getByRole('button', { name: 'Save', exact: true }).click();
    await visible(a.page, a.page.getByText(/Saved as revision \d+/), 'the save answer');
    const files = await h.api('GET', `/studio/workspaces/${workspace.body.id}/files`);
    expect(files.body.files['main.js']).to.equal('// typed in B\nresult = 1;\n// typed in A');

    await a.page.getByRole('button', { name: 'Save and run' }).click();
    await visible(
      a.page,
      a.page.getByRole('status', { name: 'Run result' }).getByText('Ran successfully'),
      'the run result',
    );

    const problems = await axeHere(a.page, 'studio workspace');
    await a.page.getByRole('navigation', { name: 'Workspace tools' }).getByRole('link', { name: 'Terminal' }).click();
    await visible(a.page, a.page.getByText('Connected', { exact: true }), 'the terminal connection');
    await a.page.locator('.terminal-host').click();
    await a.page.keyboard.type('ls');
    await a.page.keyboard.press('Enter');
    await a.page
      .getByRole('log', { name: 'Terminal answers' })
      .filter({ hasText: 'main.js' })
      .waitFor({ state: 'attached', timeout: 15_000 });
    await a.page.keyboard.type('result + 41');
    await a.page.keyboard.press('Enter');
    await a.page
      .getByRole('log', { name: 'Terminal answers' })
      .filter({ hasText: /› result \+ 41\s+42/ })
      .waitFor({ state: 'attached', timeout: 15_000 });
    await visible(a.page, a.page.locator('.xterm-rows', { hasText: '42' }), 'the answer drawn in the terminal');
    // Keyboard only: Tab leaves the terminal (no keyboard trap).
    await a.page.keyboard.press('Tab');
    expect(await a.page.evaluate('document.activeElement.className')).to.not.include('xterm-helper-textarea');
    problems.push(...(await axeHere(a.page, 'studio terminal')));
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('Alerts: a rule made in the UI fires, is acknowledged after its dry run, and a silence is created and expired', async () => {
    const stream = unique('lagging');
    const created = await h.api('POST', '/streams', { body: { id: stream, name: stream, partitions: 1 } });
    expect(created.status).to.equal(201);
    await h.api('POST', `/streams/${stream}/messages`, {
      body: { messages: [{ value: { n: 1 } }, { value: { n: 2 } }] },
    });
    await h.api('POST', `/streams/${stream}/consumers/slow/offsets`, {
      body: { offsets: [{ partition: 0, offset: 0 }] },
    });

    const ruleName = unique('lag');
    const { page } = await h.signedInPage('admin', '/console/alerts?view=rules');
    await visible(page, page.getByRole('heading', { name: 'New rule' }), 'the rule form');
    await page.getByLabel('Name').fill(ruleName);
    await page.getByLabel('Signal').selectOption('consumer_lag');
    await page.getByLabel('Only series where').selectOption('stream');
    await page.getByLabel('stream is').fill(stream);
    await page.getByLabel('Threshold').fill('0');
    await page.getByRole('button', { name: 'Create rule' }).click();
    await visible(page, page.getByRole('link', { name: ruleName }), 'the new rule in the list');

    await page.getByRole('link', { name: ruleName }).click();
    const row = page.getByRole('row').filter({ hasText: `stream=${stream}` });
    await visible(page, row.filter({ hasText: 'firing' }), 'the firing alert', 20_000);
    expect(new URL(page.url()).searchParams.get('rule')).to.not.equal(null);
    await row.getByRole('button', { name: 'Acknowledge' }).click();
    const dialog = page.getByRole('dialog');
    await visible(page, dialog.getByText('the server would answer 200'), 'the dry run of the acknowledgement');
    await dialog.getByRole('button', { name: 'Confirm: Acknowledge' }).click();
    await visible(page, row.getByText('by admin'), 'the acknowledgement');
    const problems = await axeHere(page, 'alerts');

    await page.getByRole('navigation', { name: 'Alert views' }).getByRole('link', { name: 'Silences' }).click();
    await page.getByLabel('Label name').fill('stream');
    await page.getByLabel('Label value').fill(stream);
    await page.getByLabel('Comment').fill('maintenance');
    await page.getByRole('button', { name: 'Create silence' }).click();
    const silence = page.getByRole('row').filter({ hasText: `stream=${stream}` });
    await visible(page, silence, 'the silence in the list');
    problems.push(...(await axeHere(page, 'alert silences')));
    await silence.getByRole('button', { name: 'Expire' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm: Expire' }).click();
    await visible(page, silence.getByText('ended'), 'the expired silence');
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('Logs: filters live in the URL, and live mode shows a new record without reloading', async () => {
    const first = unique('logged');
    await h.api('POST', '/bpmn/definitions', { raw: straightXml(first), contentType: 'application/octet-stream' });
    const started = await h.api('POST', '/bpmn/instances', { body: { process_id: first } });
    const { page } = await h.signedInPage('admin', '/console/logs');
    await visible(page, page.getByRole('heading', { name: 'Logs', level: 1 }), 'the logs page');
    await page.getByLabel('Source').fill('bpmn');
    await page.getByLabel('Source').press('Enter');
    await visible(
      page,
      page.getByRole('cell', { name: `Instance ${started.body.id} completed.` }),
      'the filtered record',
    );
    expect(new URL(page.url()).searchParams.get('source')).to.equal('bpmn');
    await page.getByLabel('Level').selectOption('info');
    await page.getByLabel('Live (refresh every 2 s)').check();
    const url = new URL(page.url());
    expect([url.searchParams.get('level'), url.searchParams.get('live')]).to.deep.equal(['info', 'on']);

    const second = unique('logged');
    await h.api('POST', '/bpmn/definitions', { raw: straightXml(second), contentType: 'application/octet-stream' });
    const later = await h.api('POST', '/bpmn/instances', { body: { process_id: second } });
    await visible(
      page,
      page.getByRole('cell', { name: `Instance ${later.body.id} completed.` }),
      'the new record, live',
    );
    // The same address reproduces the view in another tab.
    const { page: other } = await h.signedInPage('admin', `${url.pathname}${url.search}`);
    await visible(
      other,
      other.getByRole('cell', { name: `Instance ${later.body.id} completed.` }),
      'the view from its link',
    );
    expect(await other.getByLabel('Source').inputValue()).to.equal('bpmn');
    const problems = await axeHere(page, 'logs');
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('Audit: records filtered by resource, one record in detail, and the chain verified with its result shown', async () => {
    const workspace = await h.api('POST', '/studio/workspaces', { body: { name: unique('audited') } });
    const { page } = await h.signedInPage('admin', '/console/audit');
    await visible(page, page.getByRole('heading', { name: 'Audit trail', level: 1 }), 'the audit page');
    await page.getByLabel('Resource').fill(workspace.body.id);
    await page.getByLabel('Resource').press('Enter');
    const record = page.getByRole('link', { name: /^Record \d+: createWorkspace$/ });
    await visible(page, record, 'the workspace’s audit record');
    expect(await page.getByRole('row').count()).to.equal(2);
    await record.click();
    await visible(page, page.getByRole('heading', { name: /^Record #\d+: createWorkspace$/ }), 'the record detail');
    await visible(page, page.getByText(`POST /studio/workspaces`), 'the call of the record');

    await page.getByRole('button', { name: 'Verify the chain' }).click();
    const verdict = page.getByRole('status', { name: 'Chain verification' });
    await visible(page, verdict.getByRole('heading', { name: 'The audit chain is intact' }), 'the verification result');
    const report = await h.api('GET', '/audit/verify');
    expect(report.body.valid).to.equal(true);
    const checked = Number(await verdict.locator('dt:has-text("Records checked") + dd').textContent());
    expect(checked).to.be.greaterThan(0);
    const problems = await axeHere(page, 'audit');
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('Identity: an API token minted in the UI shows its secret once, and the secret works', async () => {
    const name = unique('ci-token');
    const { page } = await h.signedInPage('admin', '/console/identity?view=tokens');
    await visible(page, page.getByRole('heading', { name: 'Mint an API token' }), 'the token form');
    await page.getByLabel('Token name').fill(name);
    await page.getByRole('button', { name: 'Mint token' }).click();
    const notice = page.getByRole('alert').filter({ hasText: `Token ${name} minted` });
    await visible(page, notice, 'the one-time secret');
    const secret = await notice.getByLabel('Secret').inputValue();
    expect(secret.length).to.be.greaterThan(20);
    const asToken = await h.kernel.request('GET', '/streams', { token: secret });
    expect(asToken.status).to.equal(200);
    const problems = await axeHere(page, 'identity tokens (secret shown)');
    await notice.getByRole('button', { name: 'I have stored it' }).click();
    await notice.waitFor({ state: 'detached' });
    await visible(page, page.getByRole('row').filter({ hasText: name }), 'the token in the list');
    expect(await page.content()).to.not.include(secret);
    await page.reload();
    await visible(page, page.getByRole('row').filter({ hasText: name }), 'the token after a reload');
    expect(await page.content()).to.not.include(secret);

    for (const view of ['Roles', 'Sessions']) {
      await page.getByRole('navigation', { name: 'Identity views' }).getByRole('link', { name: view }).click();
      await visible(
        page,
        page.getByRole('table', { name: view === 'Sessions' ? 'Your sessions' : view }),
        `the ${view} table`,
      );
      problems.push(...(await axeHere(page, `identity ${view}`)));
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('Promotion: export → plan (diff and gate) → apply after the dry run, and the target tenant has the resource', async () => {
    const target = await h.api('POST', '/tenants', { body: { name: unique('staging') } });
    expect(target.status).to.equal(201);
    const workspace = await h.api('POST', '/studio/workspaces', {
      body: { name: unique('promoted'), files: { 'main.js': 'result = 2;\n' } },
    });
    const { page } = await h.signedInPage('admin', '/console/promotion');
    await visible(page, page.getByRole('heading', { name: 'Promotion', level: 1 }), 'the promotion page');
    await page.getByRole('button', { name: 'Export bundle' }).click();
    await visible(page, page.getByText(/Bundle from tenant default/), 'the exported bundle');
    await page.getByLabel('Target tenant').selectOption(target.body.id);
    await page.getByRole('button', { name: 'Plan promotion' }).click();
    const created = page.getByRole('list', { name: 'Created' });
    await visible(page, created.getByText(workspace.body.id), 'the workspace among the changes');
    expect(new URL(page.url()).searchParams.get('plan')).to.match(/^plan_/);
    await visible(
      page,
      page.getByRole('row').filter({ hasText: 'workspace_tests' }).getByText('passes'),
      'the gate’s checks',
    );
    const problems = await axeHere(page, 'promotion plan');
    await page.getByRole('button', { name: 'Apply plan' }).click();
    const dialog = page.getByRole('dialog');
    await visible(page, dialog.getByText('the server would answer 200'), 'the dry run of the apply');
    await dialog.getByRole('button', { name: 'Confirm: Apply plan' }).click();
    await visible(page, page.getByRole('status').filter({ hasText: 'Applied:' }), 'the applied plan');
    const promoted = await h.api('GET', `/studio/workspaces/${workspace.body.id}?tenant_id=${target.body.id}`);
    expect(promoted.status).to.equal(200);
    expect(promoted.body.name).to.equal(workspace.body.name);
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('SQL console: a query runs from the editor into the grid, and a query past the limit is explained', async function () {
    const { page } = await h.signedInPage('admin', '/console/sql');
    const editor = page.getByRole('textbox', { name: 'SQL query' });
    await visible(page, editor, 'the SQL editor');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('SELECT id, name FROM streams ORDER BY id');
    await page.keyboard.press('Control+Enter');
    this.timeout(60_000);
    await visible(page, page.getByRole('status').filter({ hasText: /\d+ rows? in \d+ ms/ }), 'the result', 20_000);
    await visible(page, page.getByRole('columnheader', { name: 'name' }), 'the result grid');
    expect(new URL(page.url()).searchParams.get('q')).to.equal('SELECT id, name FROM streams ORDER BY id');
    const problems = await axeHere(page, 'sql result');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('SELECT pg_sleep(8)');
    await page.getByRole('button', { name: 'Run query' }).click();
    await visible(page, page.getByRole('alert').filter({ hasText: 'query_timeout' }), 'the timeout answer', 30_000);
    await visible(page, page.getByText('ran past the statement timeout'), 'its explanation');
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('API: the OpenAPI document is browsable by tag and operation, with its permission and schemas', async () => {
    const { page } = await h.signedInPage('viewer', '/console/api');
    await visible(page, page.getByRole('heading', { name: 'API', level: 1 }), 'the API page');
    await page.getByRole('navigation', { name: 'API tags' }).getByRole('link', { name: 'bpmn', exact: true }).click();
    await page.getByRole('link', { name: 'POST /bpmn/tasks/{id}/complete' }).click();
    const op = page.getByRole('article');
    await visible(page, op.getByText('runtime:bpmn:write'), 'the operation’s permission');
    await visible(page, op.getByText('(you do not hold it)'), 'whether the viewer holds it');
    await visible(page, op.getByRole('heading', { name: /Request body/ }), 'the request body');
    expect(new URL(page.url()).searchParams.get('op')).to.equal('completeBpmnTask');
    const problems = await axeHere(page, 'api browser');
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});
