import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { type ModelServer, startModelServer } from '../../support/model-server.js';
import { axeViolations } from './support/axe.js';
import {
  browserUnavailable,
  type ConsoleHarness,
  consoleServed,
  startConsole,
  unique,
  visible,
} from './support/browser.js';

/**
 * The agent panel in Debian's Chromium, against a kernel whose agent speaks to the scripted model
 * server on loopback (OpenAI's real streaming wire format). What the panel claims is checked
 * against the API: a proposed delete has not happened until Approve, and never after Deny.
 */

/** The panel, opened from the shell's header on whatever page is shown. */
async function openPanel(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Agent', exact: true }).click();
  const panel = page.getByRole('complementary', { name: 'Agent' });
  await visible(page, panel, 'the agent panel');
  return panel;
}

async function send(panel: Locator, message: string): Promise<void> {
  await panel.getByLabel('Message to the agent').fill(message);
  await panel.getByRole('button', { name: 'Send' }).click();
}

/** The settings of a test kernel whose agent talks to `model` (and a quick component supervisor). */
function withAgent(model: ModelServer) {
  return {
    settings: {
      components: { supervisor_interval_ms: 200 },
      agent: {
        provider: 'openai',
        base_url: model.url,
        model: 'scripted-1',
        api_key: 'sk-test-key',
        rate_limit_per_minute: 200,
        provider_timeout_ms: 4_000,
      },
    },
  };
}

describe('console: the agent panel in a real browser', function () {
  this.timeout(120_000);

  describe('with a model provider', () => {
    let h: ConsoleHarness;
    let model: ModelServer;

    before(async function () {
      this.timeout(300_000);
      const missing = browserUnavailable();
      if (missing) {
        console.log(`      skipped: ${missing}`);
        this.skip();
      }
      model = await startModelServer('openai');
      h = await startConsole(withAgent(model));
      if (!(await consoleServed(h.kernel))) throw new Error('the console is not served');
    });
    after(async () => {
      await h?.close();
      await model?.close();
    });
    afterEach(() => {
      h?.assertCleanConsole();
      model.script.length = 0;
    });

    async function component(name: string): Promise<string> {
      const res = await h.api('POST', '/components', { body: { name, type: 'passthrough' } });
      expect(res.status, res.text).to.equal(201);
      return res.body.id as string;
    }

    it('opens from the header on any page with focus in it, and Escape closes it back to the toggle', async () => {
      const { page } = await h.signedInPage('admin', '/console/streams');
      await visible(page, page.getByRole('heading', { level: 1 }), 'the streams page');
      const toggle = page.getByRole('button', { name: 'Agent', exact: true });
      expect(await toggle.getAttribute('aria-expanded')).to.equal('false');
      const panel = await openPanel(page);
      expect(await toggle.getAttribute('aria-expanded')).to.equal('true');
      await page.waitForFunction(`document.activeElement && document.activeElement.id === 'agent-message'`);
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      expect(await toggle.getAttribute('aria-expanded')).to.equal('false');
      await page.waitForFunction(`document.activeElement && document.activeElement.textContent === 'Agent'`);
    });

    it('streams a question answered through a read tool call into the panel: words, the call and its result', async () => {
      const id = await component(unique('agent-panel-read'));
      model.script.push(
        { text: 'Let me look at your components.', tool_calls: [{ name: 'listComponents', arguments: { limit: 10 } }] },
        (request) => {
          expect(request.messages.at(-1)?.content).to.contain(id);
          return { text: `You have a component ${id}.` };
        },
      );
      const { page } = await h.signedInPage('admin', '/console/');
      const panel = await openPanel(page);
      await send(panel, 'Which components do I have?');
      const log = panel.getByRole('log', { name: 'Conversation with the agent' });
      expect(await log.getAttribute('aria-live')).to.equal('polite');
      await visible(page, log.getByText(`You have a component ${id}.`), 'the answer');
      await visible(page, log.getByText('Let me look at your components.'), 'the words before the tool call');
      const call = log.locator('.agent-tool').filter({ hasText: 'listComponents' });
      await visible(page, call, 'the tool call');
      expect(await call.textContent()).to.match(/Result: 200: \d+ item\(s\)/);
      await visible(page, panel.getByRole('button', { name: 'Send' }), 'the composer ready again');
    });

    it('shows the words and the tool result while the turn is still running, then the error that ended it', async () => {
      // The second model request never answers: the turn is open (no done) until the provider timeout.
      model.script.push(
        { text: 'Checking now.', tool_calls: [{ name: 'listComponents', arguments: {} }] },
        { hang: true },
      );
      const { page } = await h.signedInPage('admin', '/console/');
      const panel = await openPanel(page);
      await send(panel, 'Anything running?');
      const log = panel.getByRole('log', { name: 'Conversation with the agent' });
      await visible(page, log.getByText('Checking now.'), 'the streamed words');
      await visible(page, log.getByText(/Result: 200/), 'the tool result');
      // Still answering: the words arrived before the turn ended.
      expect(await panel.getByRole('button', { name: 'Answering…' }).count()).to.equal(1);
      const stopped = log.getByRole('alert');
      await visible(page, stopped, 'the error that ended the turn', 20_000);
      expect(await stopped.textContent()).to.contain('unavailable');
    });

    it('proposes a delete with its dry run and curl / MCP: nothing until Approve; a second one Denied stays', async () => {
      const first = await component(unique('agent-panel-delete'));
      const second = await component(unique('agent-panel-keep'));
      model.script.push({
        text: 'I can delete it.',
        tool_calls: [{ name: 'deleteComponent', arguments: { id: first } }],
      });
      const { page } = await h.signedInPage('admin', '/console/components');
      const panel = await openPanel(page);
      await send(panel, `Delete component ${first}`);

      const proposal = panel.getByRole('region', { name: 'Proposed action: deleteComponent' });
      await visible(page, proposal, 'the proposed delete');
      expect(await proposal.getByRole('region', { name: 'Dry run' }).textContent()).to.contain(
        'the server would answer 204',
      );
      const curl = await proposal.locator('figure', { hasText: 'curl' }).locator('pre').textContent();
      expect(curl).to.contain('curl -X DELETE').and.to.contain(`/components/${first}`);
      const mcp = JSON.parse(
        (await proposal.locator('figure', { hasText: 'MCP tool call' }).locator('pre').textContent()) ?? '',
      );
      expect(mcp.params).to.deep.equal({ name: 'deleteComponent', arguments: { id: first } });
      // Proposed is not done.
      expect((await h.api('GET', `/components/${first}`)).status).to.equal(200);

      model.script.push({ text: 'Deleted.' });
      await proposal.getByRole('button', { name: 'Approve' }).click();
      await visible(page, proposal.getByText('Approved: the server answered 204'), 'the approved result');
      await visible(page, panel.getByText('Deleted.', { exact: true }), 'the agent going on');
      expect((await h.api('GET', `/components/${first}`)).status).to.equal(404);

      model.script.push({ tool_calls: [{ name: 'deleteComponent', arguments: { id: second } }] });
      await visible(page, panel.getByRole('button', { name: 'Send' }), 'the composer ready again');
      await send(panel, `And ${second}?`);
      const pending = panel.locator('.agent-proposal').filter({ has: page.getByRole('button', { name: 'Deny' }) });
      await visible(page, pending, 'the second proposal');
      expect(await pending.textContent()).to.contain(second);
      model.script.push({ text: 'Understood, I left it.' });
      await pending.getByRole('button', { name: 'Deny' }).click();
      await visible(page, panel.getByText('Denied: you refused this action, and nothing ran.'), 'the refusal');
      await visible(page, panel.getByText('Understood, I left it.'), 'the agent told');
      expect((await h.api('GET', `/components/${second}`)).status).to.equal(200);
    });

    it('lists the user’s conversations: open one to read it again, delete one after its dry run', async () => {
      const title = unique('remember the milk');
      model.script.push({ text: 'Noted: milk.' });
      const { page } = await h.signedInPage('admin', '/console/');
      const panel = await openPanel(page);
      await send(panel, title);
      await visible(page, panel.getByText('Noted: milk.'), 'the answer');
      await panel.getByRole('button', { name: 'New conversation' }).click();
      expect(await panel.getByText('Noted: milk.').count()).to.equal(0);

      await panel.getByRole('button', { name: 'Conversations' }).click();
      const item = panel.getByRole('listitem', { name: title });
      await visible(page, item, 'the conversation in the list');
      await item.getByRole('button', { name: title }).click();
      await visible(page, panel.getByText('Noted: milk.'), 'the reopened conversation');

      await panel.getByRole('button', { name: 'Conversations' }).click();
      await item.getByRole('button', { name: 'Delete conversation' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete conversation' });
      await visible(page, dialog.getByText('the server would answer 204'), 'the dry run of the delete');
      await dialog.getByRole('button', { name: 'Confirm: Delete conversation' }).click();
      await item.waitFor({ state: 'detached' });
      const list = await h.api('GET', '/agent/conversations');
      expect(list.body.items.map((c: { title: string }) => c.title)).to.not.include(title);
    });

    it('shows a proposal still waiting when its conversation is reopened, and Approve from there runs it', async () => {
      const id = await component(unique('agent-panel-reopen'));
      const title = `Clean up ${id}`;
      model.script.push({ tool_calls: [{ name: 'deleteComponent', arguments: { id } }] });
      const { page } = await h.signedInPage('admin', '/console/');
      const panel = await openPanel(page);
      await send(panel, title);
      const proposal = panel.getByRole('region', { name: 'Proposed action: deleteComponent' });
      await visible(page, proposal, 'the proposal');
      await panel.getByRole('button', { name: 'New conversation' }).click();
      expect(await proposal.count()).to.equal(0);

      await panel.getByRole('button', { name: 'Conversations' }).click();
      await panel.getByRole('listitem', { name: title }).getByRole('button', { name: title }).click();
      await visible(page, proposal.getByRole('button', { name: 'Approve' }), 'the reopened proposal, still waiting');
      expect(await proposal.textContent()).to.contain(id);
      expect((await h.api('GET', `/components/${id}`)).status).to.equal(200);
      // A new message while the proposal waits is refused (409): shown with its code, message and what to do.
      await send(panel, 'Never mind that, what time is it?');
      const refusal = panel.getByRole('alert').filter({ hasText: 'The agent could not answer' });
      await visible(page, refusal, 'the refusal');
      expect(await refusal.textContent())
        .to.contain('conflict')
        .and.to.contain('(409)')
        .and.to.contain('Approve or deny the proposed action first');
      // Not sent: it is back in the field, not in the conversation.
      expect(await panel.getByLabel('Message to the agent').inputValue()).to.equal('Never mind that, what time is it?');
      expect(await panel.getByRole('log').getByText('Never mind that').count()).to.equal(0);
      model.script.push({ text: 'Cleaned up.' });
      await proposal.getByRole('button', { name: 'Approve' }).click();
      await visible(page, proposal.getByText('Approved: the server answered 204'), 'the approved result');
      expect(await refusal.count()).to.equal(0);
      expect((await h.api('GET', `/components/${id}`)).status).to.equal(404);
    });

    it('axe finds no WCAG 2.1 AA violation with the panel open: a tool call, a proposal, the list (light and dark)', async () => {
      const id = await component(unique('agent-panel-axe'));
      model.script.push({
        text: 'This would remove it.',
        tool_calls: [{ name: 'deleteComponent', arguments: { id } }],
      });
      const { page } = await h.signedInPage('admin', '/console/');
      const panel = await openPanel(page);
      await send(panel, 'Remove it');
      await visible(page, panel.getByRole('region', { name: 'Proposed action: deleteComponent' }), 'the proposal');
      const problems = (await axeViolations(page)).map((v) => `proposal (light): ${v}`);
      await page.getByRole('button', { name: 'Dark theme' }).click();
      problems.push(...(await axeViolations(page)).map((v) => `proposal (dark): ${v}`));
      await panel.getByRole('button', { name: 'Conversations' }).click();
      await visible(page, panel.getByRole('heading', { name: 'Your conversations' }), 'the list');
      problems.push(...(await axeViolations(page)).map((v) => `conversations (dark): ${v}`));
      await page.getByRole('button', { name: 'Dark theme' }).click();
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  });

  describe('without a model provider', () => {
    let h: ConsoleHarness;

    before(async function () {
      this.timeout(300_000);
      const missing = browserUnavailable();
      if (missing) {
        console.log(`      skipped: ${missing}`);
        this.skip();
      }
      h = await startConsole();
    });
    after(async () => h?.close());
    afterEach(() => h?.assertCleanConsole());

    it('says the deployment has no model provider and how to configure one, with no chat to break (axe clean)', async () => {
      const { page } = await h.signedInPage('builder', '/console/workflows');
      const panel = await openPanel(page);
      await visible(
        page,
        panel.getByRole('heading', { name: 'No model provider in this deployment' }),
        'the explanation',
      );
      expect(await panel.textContent())
        .to.contain('not_configured')
        .and.to.contain('Configuring a provider')
        .and.to.contain('RUNTIME_AGENT_PROVIDER');
      expect(await panel.getByLabel('Message to the agent').count()).to.equal(0);
      expect(await panel.getByRole('button', { name: 'New conversation' }).count()).to.equal(0);
      const problems = await axeViolations(page);
      expect(problems, problems.join('\n')).to.deep.equal([]);
      await panel.getByRole('button', { name: 'Close agent' }).click();
      await panel.waitFor({ state: 'hidden' });
    });
  });
});
