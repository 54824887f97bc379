import amqp from 'amqplib';
import { expect } from 'chai';
import type { Locator } from 'playwright-core';
import type { HttpResult } from '../../support/kernel.js';
import { until } from '../../support/poll.js';
import { type CodeFlowProvider, startCodeFlowProvider } from '../identity/oidc-code-provider.js';
import { axeViolations } from './support/axe.js';
import { type ConsoleHarness, unique, visible, consoleOrSkip } from './support/browser.js';

/**
 * More journeys in Debian's Chromium against a real kernel: the live dashboard (and a workflow
 * that waits for a stopped component), components through a real broker, workflow revisions and
 * runs, dead letters redriven once, single sign-on's redirect, a 503 outage, the tenant switcher
 * and the BPMN task inbox. Data is seeded through the API with unique names; locators go by role
 * and label; nothing sleeps a fixed time.
 */

const AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

function ok(res: HttpResult, status: number | number[], what: string): HttpResult {
  expect(res.status, `${what}: ${res.text}`).to.be.oneOf(Array.isArray(status) ? status : [status]);
  return res;
}

/** The cells of a table row by their column header (the table's own header row). */
async function rowCells(table: Locator, row: Locator): Promise<Record<string, string>> {
  const headers = await table.getByRole('columnheader').allTextContents();
  const cells = await row.getByRole('cell').allTextContents();
  return Object.fromEntries(headers.map((h, i) => [h.trim(), (cells[i] ?? '').trim()]));
}

/** A user task whose form (camunda:formData) asks for a decision and a comment. */
function formTaskXml(processId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="defs" targetNamespace="http://example.com/console">
  <process id="${processId}" isExecutable="true">
    <startEvent id="start" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <userTask id="review" name="Review">
      <extensionElements>
        <camunda:formData>
          <camunda:formField id="approved" label="Approved" type="boolean">
            <camunda:validation><camunda:constraint name="required" /></camunda:validation>
          </camunda:formField>
          <camunda:formField id="comment" label="Comment" type="string" />
        </camunda:formData>
      </extensionElements>
    </userTask>
    <sequenceFlow id="f2" sourceRef="review" targetRef="end" />
    <endEvent id="end" />
  </process>
</definitions>`;
}

describe('more console journeys in a real browser (Debian chromium)', function () {
  this.timeout(120_000);
  let h: ConsoleHarness;

  before(async function () {
    h = await consoleOrSkip(this, {
      settings: { components: { supervisor_interval_ms: 200 }, workflows: { poll_ms: 100 } },
    });
  });

  after(async () => {
    await h?.close();
  });

  afterEach(() => {
    h?.assertCleanConsole();
  });

  async function stream(id: string, tenantId?: string): Promise<void> {
    const body = { id, name: id, partitions: 1, ...(tenantId ? { tenant_id: tenantId } : {}) };
    ok(await h.api('POST', '/streams', { body }), 201, `stream ${id}`);
  }

  async function publish(id: string, values: unknown[]): Promise<string[]> {
    const res = ok(
      await h.api('POST', `/streams/${id}/messages`, { body: { messages: values.map((value) => ({ value })) } }),
      201,
      `publish to ${id}`,
    );
    return res.body.messages.map((m: { id: string }) => m.id);
  }

  /** A deployed workflow from `input` through one script step to `sinks`; one attempt, then dead. */
  async function workflow(input: string, source: string, sinks: unknown[]): Promise<string> {
    const id = unique('wf');
    ok(
      await h.api('POST', '/workflows', {
        body: {
          id,
          name: id,
          input: { stream: input },
          steps: [{ type: 'script', config: { source } }],
          sinks,
          on_error: { max_attempts: 1, backoff_ms: 10 },
        },
      }),
      201,
      'workflow',
    );
    ok(await h.api('POST', `/workflows/${id}/deploy`, { body: { request_id: unique('deploy') } }), 200, 'deploy');
    return id;
  }

  async function deliveries(messageId: string): Promise<string[]> {
    const res = ok(await h.api('GET', `/messages/${messageId}`), 200, 'message');
    return res.body.deliveries.map((d: { status: string }) => d.status);
  }

  it('Dashboard: per-workflow figures and components by state refresh live; a workflow held by a stopped component shows that it waits', async function () {
    this.timeout(150_000);
    const input = unique('dash-in');
    await stream(input);
    const sink = ok(
      await h.api('POST', '/components', { body: { name: unique('dash-log'), type: 'log', config: {} } }),
      201,
      'log sink component',
    ).body;
    const id = await workflow(
      input,
      'const v = service.json.decode(input.body); if (v.poison) throw new Error("poison"); service.route.push(v);',
      [{ component: sink.id }],
    );
    const [good, poison] = await publish(input, [{ n: 1 }, { n: 2, poison: true }]);
    await until(async () => (await deliveries(poison as string)).includes('dead'), 30_000, { what: 'the dead letter' });
    await until(async () => (await deliveries(good as string)).includes('processed'), 30_000, { what: 'processed' });

    const { page } = await h.signedInPage('admin', '/console/?window=5m');
    await visible(page, page.getByRole('heading', { name: 'Dashboard', level: 1 }), 'the dashboard');
    const table = page.getByRole('table', { name: 'Workflow figures over 5m' });
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: id, exact: true }) });
    await visible(page, row, 'the workflow’s row');
    const first = await rowCells(table, row);
    expect([first.In, first.Errors, first['Dead letters']]).to.deep.equal(['2', '1', '1']);
    await visible(
      page,
      row.getByRole('link', { name: '1', exact: true }),
      'the dead letters, linked to the messages page',
    );
    const components = page.getByRole('region', { name: 'Components' });
    const byState = (await h.api('GET', '/dashboard?window=5m')).body.sections.components.by_state as Record<
      string,
      number
    >;
    for (const [state, n] of Object.entries(byState))
      await visible(page, components.getByRole('link', { name: `${state} ${n}` }), `${n} ${state} components`);

    // Live: a new message changes the figure without a reload (the page keeps its own state).
    await page.evaluate('window.__sameDocument = true');
    await publish(input, [{ n: 3 }]);
    await until(async () => (await rowCells(table, row)).In === '3', 30_000, { what: 'In = 3 without reload' });
    expect(await page.evaluate('window.__sameDocument')).to.equal(true);

    // Stop the sink: the next message is held (lag), and the dashboard says the workflow waits for it.
    ok(await h.api('POST', `/components/${sink.id}/stop`, { body: {} }), 200, 'stop the sink');
    await publish(input, [{ n: 4 }]);
    await visible(page, row.getByText(`waiting for ${sink.id}`), 'the waiting workflow on the dashboard', 30_000);
    await visible(page, components.getByRole('link', { name: /^stopped \d+$/ }), 'a stopped component', 30_000);
    const problems = (await axeViolations(page)).map((v) => `dashboard: ${v}`);

    await row.getByRole('link', { name: id, exact: true }).click();
    const notice = page.getByRole('status', { name: 'Why the workflow waits' });
    await visible(page, notice.getByText(/Holding its messages until/), 'the reason on the workflow page');
    await visible(page, notice.getByRole('link', { name: sink.id }), 'the stopped component, linked');
    problems.push(...(await axeViolations(page)).map((v) => `workflow (waiting): ${v}`));
    // Started again, the held message goes through and the workflow no longer waits.
    ok(await h.api('POST', `/components/${sink.id}/start`, { body: {} }), 200, 'start the sink');
    await notice.waitFor({ state: 'detached', timeout: 20_000 });
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('Components: created from the type’s form (the secret write-only), started against RabbitMQ, its state and last error follow the broker, stopped and started', async function () {
    this.timeout(120_000);
    const target = unique('amqp-in');
    await stream(target);
    const queue = unique('console-queue');
    const connection = await amqp.connect(AMQP_URL);
    const channel = await connection.createChannel();
    try {
      const { page } = await h.signedInPage('admin', '/console/components/new');
      await page.getByLabel('Type', { exact: true }).selectOption('amqp.consume');
      const name = unique('ui-amqp');
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByLabel('Stream', { exact: true }).fill(target);
      const url = page.getByLabel('Url', { exact: true });
      expect(await url.getAttribute('type'), 'a secret is typed like a password').to.equal('password');
      await url.fill(AMQP_URL);
      // The queue does not exist yet: the source will fail with the broker's answer.
      await page.getByLabel('Queue', { exact: true }).fill(queue);
      await page.getByRole('button', { name: 'Create component' }).click();
      await visible(page, page.getByRole('heading', { name, level: 1 }), 'the component page');
      const componentId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() as string);

      // Write-only: the API and the page hold that the secret is set, never its value.
      const stored = ok(await h.api('GET', `/components/${componentId}`), 200, 'component').body;
      expect(stored.config).to.not.have.property('url');
      expect(stored.secrets_set).to.include('url');
      const settings = page.getByRole('form', { name: 'Settings' });
      expect(await settings.getByLabel('Url', { exact: true }).inputValue()).to.equal('');
      await visible(page, settings.getByText('Secret, set: leave empty to keep it.'), 'the secret shown as set');
      expect(await page.content()).to.not.include('guest:guest');

      const state = page.getByRole('status', { name: 'State' });
      const lastError = page.getByRole('status', { name: 'Last error' });
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await visible(page, state.getByText('failed', { exact: true }), 'the failed state', 30_000);
      await visible(page, lastError.getByText(new RegExp(queue)), 'the broker’s refusal as the last error', 30_000);

      // The queue appears at the broker: the next attempt runs, and the last error clears.
      await channel.assertQueue(queue, { durable: false });
      await visible(page, state.getByText('running', { exact: true }), 'the running state', 60_000);
      await visible(page, lastError.getByText('none', { exact: true }), 'no last error');
      channel.sendToQueue(queue, Buffer.from(JSON.stringify({ via: 'rabbitmq' })), {
        contentType: 'application/json',
        messageId: unique('amqp-msg'),
      });
      await until(
        async () => (await h.api('GET', `/streams/${target}/messages?limit=10`)).body.items.length === 1,
        30_000,
        { what: 'the RabbitMQ message appended to the stream' },
      );

      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await visible(page, dialog.getByText('the server would answer 200'), 'the dry run of the stop');
      await dialog.getByRole('button', { name: 'Confirm: Stop' }).click();
      await visible(page, state.getByText('stopped', { exact: true }), 'the stopped state', 30_000);
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await visible(page, state.getByText('running', { exact: true }), 'running again', 30_000);
      const problems = (await axeViolations(page)).map((v) => `component: ${v}`);
      expect(problems, problems.join('\n')).to.deep.equal([]);
      ok(await h.api('POST', `/components/${componentId}/stop`, { body: {} }), 200, 'stop before cleanup');
    } finally {
      await channel.deleteQueue(queue).catch(() => undefined);
      await connection.close();
    }
  });

  it('Workflows: a second revision saved in the UI, the script’s line diff, runs filtered by status in the URL, and a run in detail', async () => {
    const input = unique('rev-in');
    await stream(input);
    const v1 =
      'const v = service.json.decode(input.body);\nif (v.bad) throw new Error("bad reading");\nservice.route.push(v);';
    const id = await workflow(input, v1, [{ type: 'log', config: {} }]);
    const [good, bad] = await publish(input, [{ n: 1 }, { n: 2, bad: true }]);
    await until(async () => (await deliveries(bad as string)).includes('dead'), 30_000, { what: 'the dead run' });
    await until(async () => (await deliveries(good as string)).includes('processed'), 30_000, { what: 'processed' });

    const { page } = await h.signedInPage('admin', `/console/workflows/${id}?tab=edit`);
    const source = page.getByRole('group', { name: 'Step 1' }).getByLabel('Source', { exact: true });
    await visible(page, source, 'the script of step 1');
    await source.fill(v1.replace('service.route.push(v);', 'service.route.push({ ...v, checked: true });'));
    await page.getByRole('button', { name: 'Save revision' }).click();
    await visible(page, page.getByRole('status').filter({ hasText: 'Saved as a new revision (2)' }), 'the save');

    await page.getByRole('tab', { name: 'Revisions' }).click();
    await visible(page, page.getByText(/^Revision 2,/), 'revision 2 in the list');
    const script = page.getByRole('region', { name: 'Script /steps/0/config/source from revision 1 to 2' });
    await visible(page, script, 'the script’s line diff');
    expect(await script.locator('.diff-del').allTextContents()).to.deep.equal(['- service.route.push(v);\n']);
    expect(await script.locator('.diff-add').allTextContents()).to.deep.equal([
      '+ service.route.push({ ...v, checked: true });\n',
    ]);
    await visible(page, script.getByText('if (v.bad) throw new Error("bad reading");'), 'an unchanged line kept');
    const problems = (await axeViolations(page)).map((v) => `revisions: ${v}`);

    await page.getByRole('tab', { name: 'Runs' }).click();
    const runs = page.getByRole('table', { name: 'Runs' });
    await visible(page, runs.getByRole('row').filter({ hasText: 'processed' }), 'the processed run');
    await page.getByLabel('Run status').selectOption('dead');
    await visible(page, runs.getByRole('row').filter({ hasText: 'bad reading' }), 'the dead run');
    const url = new URL(page.url());
    expect([url.searchParams.get('tab'), url.searchParams.get('status')]).to.deep.equal(['runs', 'dead']);
    expect(await runs.getByRole('row').filter({ hasText: 'processed' }).count()).to.equal(0);
    // The address reproduces the filter.
    await page.reload();
    await visible(page, runs.getByRole('row').filter({ hasText: 'bad reading' }), 'the dead run after a reload');
    expect(await page.getByLabel('Run status').inputValue()).to.equal('dead');

    await runs.getByRole('row').filter({ hasText: 'bad reading' }).getByRole('link').first().click();
    await visible(page, page.getByRole('heading', { name: /^Run / }), 'the run page');
    await visible(page, page.getByText(/bad reading/), 'the run’s error');
    await visible(page, page.getByRole('link', { name: `Message ${bad}` }), 'its input message');
    await visible(page, page.getByText('"bad": true'), 'the input’s value');
    problems.push(...(await axeViolations(page)).map((v) => `run: ${v}`));
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('Dead letters: a failing script’s messages are redriven from the UI after the dry run, listed as redriven, and a second redrive replays nothing', async () => {
    const input = unique('dl-in');
    await stream(input);
    const id = await workflow(input, 'throw new Error("always fails");', [{ type: 'log', config: {} }]);
    const [dead] = await publish(input, [{ order: 7 }]);
    await until(async () => (await deliveries(dead as string)).includes('dead'), 30_000, { what: 'the dead letter' });
    // Paused, so the replay waits in the input instead of dying again into a dead letter of its own.
    ok(await h.api('POST', `/workflows/${id}/pause`, { body: {} }), 200, 'pause');

    const { page } = await h.signedInPage('operator', `/console/messages?workflow=${id}&status=dead`);
    const messages = page.getByRole('table', { name: 'Messages' });
    await visible(page, messages.getByRole('link', { name: dead as string }), 'the dead letter in the list');
    await page.getByRole('button', { name: 'Redrive dead letters' }).click();
    const dialog = page.getByRole('dialog');
    await visible(page, dialog.getByText('the server would answer 200'), 'the dry run of the redrive');
    await visible(page, dialog.getByText(/"replayed": 1/), 'what the redrive would replay');
    expect(ok(await h.api('GET', `/messages?workflow=${id}&status=dead`), 200, 'dead').body.items).to.have.length(1);
    await dialog.getByRole('button', { name: 'Confirm: Redrive dead letters' }).click();
    const done = page.getByRole('status').filter({ hasText: 'Redrove 1 dead letter' });
    await visible(page, done, 'the redrive’s answer');
    await visible(page, page.getByText('No message matches these filters.'), 'no dead letter left');

    await done.getByRole('link', { name: 'see them as redriven' }).click();
    await visible(page, messages.getByRole('link', { name: dead as string }), 'the message listed as redriven');
    expect(new URL(page.url()).searchParams.get('status')).to.equal('redriven');
    const redriven = ok(await h.api('GET', `/messages?workflow=${id}&status=redriven`), 200, 'redriven').body.items;
    expect(redriven.map((m: { id: string }) => m.id)).to.deep.equal([dead]);
    expect(redriven[0].replays).to.have.length(1);
    await visible(page, messages.getByRole('link', { name: redriven[0].replays[0] }), 'its replay, linked');
    const problems = (await axeViolations(page)).map((v) => `messages (redriven): ${v}`);

    await page.getByLabel('Delivery status').selectOption('dead');
    await page.getByRole('button', { name: 'Redrive dead letters' }).click();
    await visible(page, dialog.getByText(/"replayed": 0/), 'a dry run that would replay nothing');
    await dialog.getByRole('button', { name: 'Confirm: Redrive dead letters' }).click();
    await visible(
      page,
      page.getByRole('status').filter({ hasText: 'Nothing to redrive' }),
      'the second redrive replayed nothing',
    );
    const again = ok(await h.api('GET', `/messages?workflow=${id}&status=redriven`), 200, 'redriven').body.items;
    expect(again[0].replays).to.deep.equal(redriven[0].replays);
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  describe('single sign-on', () => {
    let idp: CodeFlowProvider;
    before(async () => {
      idp = await startCodeFlowProvider({
        id: 'console-client',
        redirectUri: `${h.url}/auth/browser/oidc/callback`,
        roles: {},
      });
    });
    after(async () => {
      await idp?.close();
    });

    it('a tenant with an OIDC provider shows “Sign in with …”: the browser goes to the provider with PKCE (S256) and a state, and comes back signed in', async () => {
      const tenant = ok(await h.api('POST', '/tenants', { body: { name: unique('sso') } }), 201, 'tenant').body;
      ok(
        await h.api('POST', '/identity-providers', {
          body: {
            tenant_id: tenant.id,
            id: 'corp',
            issuer: idp.issuer,
            audience: 'https://runtime.test/api',
            claims: { roles: 'roles' },
            default_roles: ['viewer'],
            allow_insecure_http: true,
            browser_client_id: 'console-client',
            display_name: 'Corp SSO',
          },
        }),
        201,
        'provider',
      );
      const { page } = await h.anonymousPage('/console/sign-in');
      await visible(page, page.getByRole('heading', { name: 'Sign in to the runtime console' }), 'the sign-in page');
      const button = page.getByRole('link', { name: 'Sign in with Corp SSO' });
      expect(await button.count(), 'no button for the default tenant').to.equal(0);
      await page.getByLabel('Tenant').fill(tenant.id);
      await visible(page, button, 'the provider’s button for the tenant');
      const problems = (await axeViolations(page)).map((v) => `sign-in (sso): ${v}`);

      // The provider's development pages load assets from the internet; nothing leaves this machine.
      await page.context().route(
        (url) => url.hostname !== '127.0.0.1',
        (route) => route.fulfill({ status: 204 }),
      );
      const atProvider = page.waitForRequest((r) => r.url().startsWith(`${idp.issuer}/`) && r.isNavigationRequest());
      await button.click();
      const authorization = new URL((await atProvider).url());
      const params = Object.fromEntries(authorization.searchParams);
      expect(params).to.include({
        response_type: 'code',
        client_id: 'console-client',
        code_challenge_method: 'S256',
        redirect_uri: `${h.url}/auth/browser/oidc/callback`,
      });
      expect(params.code_challenge, 'a base64url SHA-256 challenge').to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(params.state?.length ?? 0, 'a state').to.be.greaterThan(15);
      expect(params.scope?.split(' ')).to.include('openid');

      // At the provider (its development login and consent pages), then back in the console, signed in.
      await page.locator('input[name="login"]').fill('alice');
      await page.locator('input[name="password"]').fill('any');
      await page.locator('button[type="submit"]').click();
      await page.locator('button[type="submit"]').click();
      await visible(page, page.getByRole('heading', { name: 'Dashboard', level: 1 }), 'the console after sign-on');
      await visible(page, page.getByText(`Tenant ${tenant.id}`), 'the provider’s tenant in the top bar');
      const me = (await page.evaluate("fetch('/auth/me').then((r) => r.json())")) as {
        tenant_id: string;
        roles: string[];
      };
      expect([me.tenant_id, me.roles]).to.deep.equal([tenant.id, ['viewer']]);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  });

  it('503: while the API answers 503 the page says the service is unavailable and retries; it recovers when the service is back', async () => {
    const name = unique('outage');
    await stream(name);
    const { page } = await h.signedInPage('viewer', '/console/');
    await visible(page, page.getByRole('heading', { name: 'Dashboard', level: 1 }), 'the dashboard');
    let down = true;
    let refused = 0;
    await page.route(
      (url) => url.pathname === '/streams',
      async (route) => {
        if (!down) return route.continue();
        refused += 1;
        return route.fulfill({
          status: 503,
          contentType: 'application/json',
          headers: { 'Retry-After': '1' },
          body: JSON.stringify({
            error: { code: 'unavailable', message: 'The database is not reachable.', status: 503 },
          }),
        });
      },
    );
    await page.getByRole('link', { name: 'Streams' }).click();
    await visible(page, page.getByRole('heading', { name: 'Streams', level: 1 }), 'the streams page');
    const outage = page.getByRole('status').filter({ hasText: 'The service is unavailable; retrying…' });
    await visible(page, outage, 'the outage banner');
    await until(() => refused >= 3, 20_000, { what: 'the page asked again (three refused calls)' });
    await visible(page, outage, 'the outage banner while it retries');
    down = false;
    await visible(page, page.getByRole('link', { name, exact: true }), 'the streams once the service is back', 20_000);
    await outage.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('Tenants: an account admin switches tenant and sees that tenant’s resources, not the first one’s', async () => {
    const tenant = ok(await h.api('POST', '/tenants', { body: { name: unique('other') } }), 201, 'tenant').body;
    const here = unique('here');
    const there = unique('there');
    await stream(here);
    await stream(there, tenant.id);
    const { page } = await h.signedInPage('admin', '/console/streams');
    await visible(page, page.getByRole('link', { name: here, exact: true }), 'the default tenant’s stream');
    await page.getByLabel('Tenant', { exact: true }).selectOption(tenant.id);
    await visible(page, page.getByRole('link', { name: there, exact: true }), 'the other tenant’s stream');
    expect(await page.getByRole('link', { name: here, exact: true }).count()).to.equal(0);
    // The choice holds across pages and a reload.
    await page.reload();
    await visible(page, page.getByRole('link', { name: there, exact: true }), 'the other tenant after a reload');
    expect(await page.getByLabel('Tenant', { exact: true }).inputValue()).to.equal(tenant.id);
    await page.getByRole('link', { name: there, exact: true }).click();
    await visible(page, page.getByRole('heading', { name: there, level: 1 }), 'the other tenant’s stream page');
    await page.getByLabel('Tenant', { exact: true }).selectOption('default');
    await page.goto('/console/streams');
    await visible(page, page.getByRole('link', { name: here, exact: true }), 'back in the default tenant');
  });

  it('BPMN task inbox: a task claimed and unclaimed, then completed with its form’s fields', async () => {
    const processId = unique('form-task');
    ok(
      await h.api('POST', '/bpmn/definitions', {
        raw: formTaskXml(processId),
        contentType: 'application/octet-stream',
      }),
      201,
      'definition',
    );
    const instance = ok(
      await h.api('POST', '/bpmn/instances', { body: { process_id: processId } }),
      201,
      'instance',
    ).body;
    const { page } = await h.signedInPage('admin', '/console/bpmn/tasks');
    await page.getByRole('link', { name: `Open task Review of ${instance.id}` }).click();
    const task = page.getByRole('region', { name: 'Task Review' });
    const assignee = task.getByRole('status', { name: 'Assignee' });
    await visible(page, assignee.getByText('Nobody has claimed it.'), 'the unclaimed task');
    await task.getByRole('button', { name: 'Claim', exact: true }).click();
    await visible(page, assignee.getByText(`Claimed by ${h.credentials.admin.username}`), 'the claim');
    const row = page
      .getByRole('table', { name: 'Tasks' })
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: instance.id }) });
    await visible(page, row.getByRole('cell', { name: h.credentials.admin.username }), 'the assignee in the inbox');
    const tasks = async () =>
      ok(await h.api('GET', `/bpmn/tasks?instance_id=${instance.id}`), 200, 'tasks').body.items[0];
    expect((await tasks()).assignee).to.equal(h.credentials.admin.username);

    await task.getByRole('button', { name: 'Unclaim' }).click();
    await visible(page, assignee.getByText('Nobody has claimed it.'), 'the task given back');
    expect((await tasks()).assignee).to.equal(null);
    await task.getByRole('button', { name: 'Claim', exact: true }).click();
    await visible(page, assignee.getByText(`Claimed by ${h.credentials.admin.username}`), 'claimed again');

    const form = task.getByRole('group', { name: 'Task form' });
    await form.getByLabel('Approved').selectOption('true');
    await form.getByLabel('Comment').fill('looks right');
    const problems = (await axeViolations(page)).map((v) => `task form: ${v}`);
    await task.getByRole('button', { name: 'Complete task' }).click();
    const dialog = page.getByRole('dialog');
    await visible(page, dialog.getByText('the server would answer 200'), 'the dry run of the completion');
    await dialog.getByRole('button', { name: 'Confirm: Complete task' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const done = ok(await h.api('GET', `/bpmn/instances/${instance.id}`), 200, 'instance').body;
    expect(done.state).to.equal('completed');
    expect(done.variables).to.deep.equal({ approved: true, comment: 'looks right' });
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});
