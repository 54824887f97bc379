import { expect } from 'chai';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { visible, unique, type ConsoleHarness, consoleOrSkip } from './support/browser.js';

/** The console path the page is on (without /console), with its query. */
function consolePath(page: Page): string {
  const url = new URL(page.url());
  return url.pathname.replace(/^\/console/, '') + url.search;
}

describe('console in a real browser (Debian chromium)', function () {
  this.timeout(120_000);
  let h: ConsoleHarness;

  before(async function () {
    h = await consoleOrSkip(this);
  });

  after(async () => {
    await h?.close();
  });

  afterEach(() => {
    h?.assertCleanConsole();
  });

  describe('sign-in and session', () => {
    it('signs in with username and password and returns to the page asked for; a wrong password shows the API error', async () => {
      const { page } = await h.anonymousPage('/console/streams');
      await visible(page, page.getByRole('heading', { name: 'Sign in to the runtime console' }), 'the sign-in page');
      expect(new URL(page.url()).searchParams.get('return_to')).to.equal('/streams');

      await page.getByLabel('Username').fill(h.credentials.builder.username);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await visible(
        page,
        page.getByRole('alert').filter({ hasText: 'invalid_credentials' }),
        'the refusal with its code',
      );

      await page.getByLabel('Password').fill(h.credentials.builder.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await visible(page, page.getByRole('heading', { name: 'Streams', level: 1 }), 'the streams page after sign-in');
      expect(consolePath(page)).to.equal('/streams');
      // The session lives in HttpOnly cookies only: nothing in script-readable storage.
      const stored = await page.evaluate(
        'JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })',
      );
      expect(stored).to.not.match(/sess_|sk_|token/i);
    });

    it('refreshes silently: a lost access cookie is renewed from the refresh cookie and the page carries on', async () => {
      const { context, page } = await h.signedInPage('builder', '/console/streams');
      await visible(page, page.getByRole('heading', { name: 'Streams', level: 1 }), 'the streams page');
      const before = await context.cookies();
      const refreshCookie = before.find((c) => c.path.startsWith('/auth/browser'));
      expect(
        refreshCookie,
        `a refresh cookie scoped to /auth/browser among ${before.map((c) => `${c.name}@${c.path}`).join(', ')}`,
      ).to.not.equal(undefined);
      expect(before.every((c) => c.httpOnly && c.sameSite === 'Strict')).to.equal(true);
      // Drop every cookie but the refresh one: the next API call answers 401, the app refreshes and retries.
      await context.clearCookies();
      await context.addCookies([refreshCookie as NonNullable<typeof refreshCookie>]);
      const refreshed = page.waitForResponse((r) => r.url().endsWith('/auth/browser/refresh') && r.status() === 200);
      await page.getByRole('link', { name: 'Components' }).click();
      await refreshed;
      await visible(
        page,
        page.getByRole('heading', { name: 'Components', level: 1 }),
        'the components page after the silent refresh',
      );
      expect(consolePath(page)).to.equal('/components');
    });

    it('refreshes on a timer before the access cookie expires', async () => {
      const { context, page } = await h.anonymousPage('/console/sign-in');
      // Fake timers from the next load on: the app's refresh timer then runs on a clock the test moves.
      await page.clock.install();
      await page.reload();
      await page.getByLabel('Username').fill(h.credentials.viewer.username);
      await page.getByLabel('Password').fill(h.credentials.viewer.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await visible(page, page.getByRole('heading', { name: 'Dashboard', level: 1 }), 'the dashboard');
      const refreshed = page.waitForResponse((r) => r.url().endsWith('/auth/browser/refresh') && r.status() === 200);
      // Fifteen minutes of browser time pass; the app renews the session a minute before it ends.
      await page.clock.fastForward('15:00');
      await refreshed;
      expect((await context.cookies()).length).to.be.greaterThan(0);
    });

    it('a session that ends mid-way returns to sign-in and then back to the same page', async () => {
      const { context, page } = await h.signedInPage('builder', '/console/codecs');
      await visible(page, page.getByRole('heading', { name: 'Codecs', level: 1 }), 'the codecs page');
      await context.clearCookies();
      await page.getByRole('link', { name: 'Workflows' }).click();
      await visible(
        page,
        page.getByRole('heading', { name: 'Sign in to the runtime console' }),
        'the sign-in page after the session ended',
      );
      expect(new URL(page.url()).searchParams.get('return_to')).to.equal('/workflows');
      await page.getByLabel('Username').fill(h.credentials.builder.username);
      await page.getByLabel('Password').fill(h.credentials.builder.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await visible(page, page.getByRole('heading', { name: 'Workflows', level: 1 }), 'the workflows page again');
    });

    it('signs out: the session is gone for the browser and for the API', async () => {
      const { page } = await h.signedInPage('operator', '/console/');
      await visible(page, page.getByRole('heading', { name: 'Dashboard', level: 1 }), 'the dashboard');
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await visible(page, page.getByRole('heading', { name: 'Sign in to the runtime console' }), 'the sign-in page');
      const status = await page.evaluate("fetch('/auth/me').then((r) => r.status)");
      expect(status).to.equal(401);
    });

    it('refuses a mutating call made with the cookie but without the CSRF header', async () => {
      const { page } = await h.signedInPage('builder', '/console/streams');
      await visible(page, page.getByRole('heading', { name: 'Streams', level: 1 }), 'the streams page');
      const name = unique('csrf');
      const post = (withHeader: boolean) =>
        page.evaluate(
          `fetch('/streams', { method: 'POST', headers: Object.assign({ 'content-type': 'application/json' }, ${withHeader} ? { 'X-Runtime-CSRF': '1' } : {}), body: JSON.stringify({ name: ${JSON.stringify(name)} }) }).then(async (r) => ({ status: r.status, body: await r.json() }))`,
        ) as Promise<{ status: number; body: { error?: { code: string } } }>;
      const refused = await post(false);
      expect(refused.status).to.equal(403);
      const list = await h.api('GET', '/streams?limit=1000');
      expect(list.body.items.map((s: { name: string }) => s.name)).to.not.include(name);
      const accepted = await post(true);
      expect(accepted.status).to.equal(201);
    });
  });

  describe('per-caller UI', () => {
    it('a viewer sees no enabled write control, and each disabled one names its permission', async () => {
      const stream = unique('viewer-stream');
      expect((await h.api('POST', '/streams', { body: { id: stream, name: stream } })).status).to.equal(201);
      const { page } = await h.signedInPage('viewer', '/console/streams');
      const pages: Array<[string, string]> = [
        ['/console/streams', 'Streams'],
        [`/console/streams/${stream}?tab=settings`, stream],
        [`/console/streams/${stream}?tab=publish`, stream],
        ['/console/components', 'Components'],
        ['/console/components/new', 'New component'],
        ['/console/workflows', 'Workflows'],
        ['/console/workflows/new', 'New workflow'],
        ['/console/codecs', 'Codecs'],
      ];
      let seen = 0;
      for (const [path, heading] of pages) {
        await page.goto(path);
        await visible(page, page.getByRole('heading', { name: heading, level: 1 }), `${path}`);
        const controls = page.locator('button[data-permission]');
        const count = await controls.count();
        for (let i = 0; i < count; i++) {
          const control = controls.nth(i);
          const permission = await control.getAttribute('data-permission');
          if (permission?.endsWith(':read')) continue;
          seen += 1;
          expect(await control.getAttribute('aria-disabled'), `${await control.textContent()} on ${path}`).to.equal(
            'true',
          );
          expect(await control.isDisabled(), `${await control.textContent()} on ${path}`).to.equal(true);
          const hint = await page
            .locator(`#${CSS_ESCAPE(await control.getAttribute('aria-describedby'))}`)
            .textContent();
          expect(hint).to.equal(`Needs ${permission}`);
        }
      }
      expect(seen, 'write controls checked').to.be.greaterThan(6);
    });
  });

  describe('MQTT → workflow → stream, built entirely in the UI', () => {
    it('creates the streams, an mqtt.subscribe source, a workflow with a script step, deploys it, and real MQTT messages arrive in the stream browser', async function () {
      this.timeout(180_000);
      const input = unique('ui-mqtt-in');
      const output = unique('ui-mqtt-out');
      const topic = `rt-test/${unique('console')}`;
      // Deploying needs runtime:workflow:deploy, which builders lack (their Deploy button is disabled): an admin builds it.
      const { page } = await h.signedInPage('admin', '/console/streams');

      for (const name of [input, output]) {
        await page.goto('/console/streams');
        await page.getByRole('button', { name: 'New stream' }).click();
        await page.getByLabel('Stream name').fill(name);
        await page.getByRole('button', { name: 'Create stream' }).click();
        await visible(page, page.getByRole('heading', { name, level: 1 }), `the page of stream ${name}`);
      }

      await page.goto('/console/components/new');
      await page.getByLabel('Type', { exact: true }).selectOption('mqtt.subscribe');
      await page.getByLabel('Name', { exact: true }).fill(unique('ui-mqtt-src'));
      await page.getByLabel('Stream', { exact: true }).fill(input);
      await page.getByLabel('Url', { exact: true }).fill('mqtt://127.0.0.1:1883');
      await page.getByLabel('Topic', { exact: true }).fill(topic);
      await page.getByLabel('Client id', { exact: true }).fill(unique('rt-console'));
      await page.getByRole('button', { name: 'Create component' }).click();
      await visible(page, page.getByRole('button', { name: 'Start', exact: true }), 'the component page');
      const componentId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() as string);
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await visible(page, page.locator('.facts .badge-running'), 'the source running', 30_000);

      await page.goto('/console/workflows/new');
      await page.getByLabel('Workflow name').fill(unique('ui-pipeline'));
      await page.getByLabel('Reads from').selectOption('component');
      await page.getByLabel('Source component').fill(componentId);
      await page.getByRole('button', { name: 'Add step' }).click();
      await page.getByLabel('Step 1 type').selectOption('script');
      await page
        .getByRole('group', { name: 'Step 1' })
        .getByLabel('Source', { exact: true })
        .fill(
          "const v = service.json.decode(input.body); service.route.push({ reading: v.reading, seen_by: 'console' });",
        );
      await page.getByRole('group', { name: 'Sink 1' }).getByLabel('Stream', { exact: true }).fill(output);
      await visible(
        page,
        page.getByRole('list', { name: 'Pipeline' }).getByText(`stream.publish → ${output}`),
        'the pipeline picture with the sink',
      );
      await page.getByRole('button', { name: 'Create workflow' }).click();
      await visible(page, page.getByRole('button', { name: 'Deploy', exact: true }), 'the workflow page');
      await page.getByRole('button', { name: 'Deploy', exact: true }).click();
      await visible(page, page.getByRole('region', { name: 'Dry run' }), 'the dry run of the deploy');
      await page.getByRole('button', { name: 'Confirm: Deploy' }).click();
      await visible(page, page.locator('.page-header .badge-running'), 'the workflow running');

      // The stream browser's live tail is open before the messages are published.
      await page.goto(`/console/streams/${output}?tab=tail`);
      await visible(page, page.getByRole('status').filter({ hasText: 'Live' }), 'the live tail connected');
      const publisher = await mqtt.connectAsync('mqtt://127.0.0.1:1883');
      try {
        for (const reading of [11, 22, 33])
          await publisher.publishAsync(topic, JSON.stringify({ reading }), { qos: 1 });
      } finally {
        await publisher.endAsync();
      }
      const rows = page
        .getByRole('region', { name: 'Live tail' })
        .getByRole('row')
        .filter({ hasText: '"seen_by":"console"' });
      await visible(page, rows.filter({ hasText: '"reading":33' }), 'the third message in the live tail', 60_000);
      expect(await rows.count()).to.equal(3);

      await page.getByRole('tab', { name: 'Messages' }).click();
      const browser = page.getByRole('table', { name: 'Stream messages' });
      await visible(page, browser.getByRole('row').filter({ hasText: '"reading":22' }), 'the message browser rows');
      await browser.getByRole('button', { name: /offset 1 of partition 0/ }).click();
      const selected = page.getByRole('region', { name: 'Selected message' });
      await visible(page, selected.getByText('Raw bytes'), 'the selected message');
      await visible(page, selected.getByText(/7b 22 72 65/), 'the raw bytes in hex');
    });
  });

  describe('codecs', () => {
    it('creates an Avro codec, shows the compatibility verdict before saving a schema change, and encodes and decodes in the playground', async () => {
      const { page } = await h.signedInPage('builder', '/console/codecs');
      const name = unique('ui-avro');
      const schema = (fields: unknown[]) => JSON.stringify({ type: 'record', name: 'Reading', fields });
      await page.getByRole('button', { name: 'New codec' }).click();
      await page.getByLabel('Codec name').fill(name);
      await page.getByLabel('Kind', { exact: true }).selectOption('avro');
      await page.getByLabel('Schema (JSON)').fill(schema([{ name: 'id', type: 'string' }]));
      await page.getByRole('button', { name: 'Create codec' }).click();
      await visible(page, page.getByRole('heading', { name, level: 1 }), 'the codec page');

      const editor = page.getByRole('form', { name: 'Schema' });
      await editor.getByLabel('Schema (JSON)').fill(
        schema([
          { name: 'id', type: 'string' },
          { name: 'n', type: 'int' },
        ]),
      );
      await editor.getByRole('button', { name: 'Check compatibility' }).click();
      await visible(page, editor.getByText(/Incompatible \(422\)/), 'the incompatible verdict');
      await visible(page, editor.getByRole('button', { name: 'Save anyway (force)' }), 'the forced save offered');

      await editor.getByLabel('Schema (JSON)').fill(
        schema([
          { name: 'id', type: 'string' },
          { name: 'n', type: 'int', default: 0 },
        ]),
      );
      await editor.getByRole('button', { name: 'Check compatibility' }).click();
      await visible(page, editor.getByText(/^Compatible/), 'the compatible verdict');
      await editor.getByRole('button', { name: 'Save schema' }).click();
      await visible(page, page.getByText(/revision 2/), 'revision 2 saved');

      await page.getByLabel('Value (JSON)').fill(JSON.stringify({ id: 'sensor-7', n: 42 }));
      await page.getByRole('button', { name: 'Encode', exact: true }).click();
      await visible(page, page.getByRole('region', { name: 'Encoded bytes' }), 'the encoded bytes');
      await page.getByRole('button', { name: 'Use these bytes to decode' }).click();
      await page.getByRole('button', { name: 'Decode', exact: true }).click();
      await visible(
        page,
        page.getByRole('region', { name: 'Decoded value' }).getByText('sensor-7'),
        'the decoded value',
      );
    });
  });

  describe('messages', () => {
    it('opens a message from the stream browser, shows its bytes and timeline, and replays it after the dry run', async () => {
      const stream = unique('ui-replay');
      expect((await h.api('POST', '/streams', { body: { id: stream, name: stream } })).status).to.equal(201);
      const published = await h.api('POST', `/streams/${stream}/messages`, {
        body: { messages: [{ key: 'k1', value: { temperature: 21.5 } }] },
      });
      expect(published.status, published.text).to.be.oneOf([200, 201]);
      const { page } = await h.signedInPage('operator', `/console/streams/${stream}`);
      await page.getByRole('button', { name: /offset 0 of partition 0/ }).click();
      await page.getByRole('link', { name: 'Open message detail' }).click();
      await visible(page, page.getByRole('heading', { name: /^Message / }), 'the message page');
      await visible(page, page.getByText('"temperature": 21.5'), 'the decoded value');
      await visible(page, page.getByRole('list', { name: 'Timeline' }).getByText(/Published to/), 'the timeline');
      await page.getByRole('button', { name: 'Replay message' }).click();
      await visible(
        page,
        page.getByRole('region', { name: 'Dry run' }).getByText(/would answer/),
        'the dry run of the replay',
      );
      const original = new URL(page.url()).pathname;
      await page.getByRole('button', { name: 'Confirm: Replay message' }).click();
      // The console opens the new message, whose timeline names the original.
      await visible(
        page,
        page.getByRole('list', { name: 'Timeline' }).getByText(/as a replay of/),
        'the replay with its original',
      );
      expect(new URL(page.url()).pathname).to.not.equal(original);
    });
  });

  describe('accessibility', () => {
    it('axe finds no WCAG 2.1 AA violation on the sign-in page and on every top-level route (and in the dark theme)', async function () {
      this.timeout(240_000);
      const anonymous = await h.anonymousPage('/console/sign-in');
      await visible(
        anonymous.page,
        anonymous.page.getByRole('heading', { name: 'Sign in to the runtime console' }),
        'the sign-in page',
      );
      const problems: string[] = (await axeViolations(anonymous.page)).map((v) => `/sign-in: ${v}`);

      const { page } = await h.signedInPage('admin', '/console/');
      const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
      await visible(page, links, 'the navigation');
      const hrefs = await links.evaluateAll((els) =>
        els.map((el) => (el as unknown as { getAttribute(n: string): string }).getAttribute('href')),
      );
      expect(hrefs.length).to.be.greaterThan(10);
      // Every route in the light theme; the dark theme's tokens on the dashboard and the streams list.
      const visits = [
        ...hrefs.map((href) => ({ href, theme: 'light' })),
        ...hrefs.slice(0, 2).map((href) => ({ href, theme: 'dark' })),
      ];
      for (const { href, theme } of visits) {
        await page.evaluate(`localStorage.setItem('console.theme', '${theme}')`);
        await page.goto(href);
        await visible(page, page.getByRole('heading', { level: 1 }), `the heading of ${href}`);
        await page.getByText('Loading…').first().waitFor({ state: 'hidden' });
        problems.push(...(await axeViolations(page)).map((v) => `${href} (${theme}): ${v}`));
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  });
});

/** CSS.escape for ids React generates (they contain colons). */
function CSS_ESCAPE(id: string | null): string {
  return (id ?? '').replace(/([^a-zA-Z0-9_-])/g, '\\$1');
}
