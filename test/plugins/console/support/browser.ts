import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startKernel, type HttpResult, type RequestOptions, type TestKernel } from '../../../support/kernel.js';
import { bootstrapCredentials, createUser, loginAdmin } from '../../../support/identity.js';
import { ensureConsoleBuilt } from './build.js';

/** Debian's Chromium; `.ci/run` installs it. Playwright never downloads a browser here. */
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export type Role = 'admin' | 'builder' | 'operator' | 'viewer';
export const ROLES: readonly Role[] = ['admin', 'builder', 'operator', 'viewer'];

/** Why the browser journeys cannot run here, or null when they can. */
export function browserUnavailable(): string | null {
  return existsSync(CHROMIUM) ? null : `${CHROMIUM} is not installed (apt-get install chromium; .ci/run does it)`;
}

let shared: Promise<Browser> | null = null;
let users = 0;
let closing: NodeJS.Timeout | undefined;

/**
 * One Chromium for every journey of the run (contexts isolate the roles). The last user's
 * release closes it after a short grace, so the next test file reuses it instead of relaunching.
 */
async function acquireBrowser(): Promise<Browser> {
  users += 1;
  if (closing) clearTimeout(closing);
  closing = undefined;
  shared ??= chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  return shared;
}

function releaseBrowser(): void {
  users -= 1;
  if (users > 0 || !shared) return;
  const browser = shared;
  closing = setTimeout(() => {
    shared = null;
    void browser.then((b) => b.close()).catch(() => undefined);
  }, 3_000);
  closing.unref();
}

/** What a page printed that the journey must not tolerate: page errors and console errors. */
export interface ConsoleProblems {
  problems: string[];
}

// Chromium logs every 4xx answer of fetch as "Failed to load resource"; the journeys provoke 401s
// and 403s on purpose, and those are the network's log, not an error of the app. So is the SQL
// console's 501 on the embedded database (it needs PostgreSQL), which its page explains, and the
// 503s an outage journey serves on purpose (the console shows the outage and retries).
const EXPECTED_NETWORK_LOG = /^Failed to load resource: the server responded with a status of (4\d\d|501|503)/;

function watch(page: Page, sink: string[]): void {
  page.on('pageerror', (err) => sink.push(`page error: ${err.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !EXPECTED_NETWORK_LOG.test(message.text()))
      sink.push(`console error: ${message.text()}`);
  });
}

export interface ConsoleHarness {
  kernel: TestKernel;
  url: string;
  adminToken: string;
  browser: Browser;
  /** Passwords of the seeded users, one per role (the admin is the bootstrap admin). */
  credentials: Record<Role, { tenant_id: string; username: string; password: string }>;
  /** The API as the bootstrap admin (Bearer), for seeding. */
  api(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
  /** A fresh context signed in (through the browser-session route) as `role`, on `path` of the console. */
  signedInPage(role: Role, path?: string): Promise<{ context: BrowserContext; page: Page }>;
  /** A fresh context with no session. */
  anonymousPage(path?: string): Promise<{ context: BrowserContext; page: Page }>;
  /** Fails when any page opened by the harness printed an error since the last call. */
  assertCleanConsole(): void;
  close(): Promise<void>;
}

/** A unique name for this run (tests never collide with one another's rows). */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** Boots a test-profile kernel (every plugin, real brokers) with the console built and one user per role. */
export async function startConsole(overrides: Record<string, unknown> = {}): Promise<ConsoleHarness> {
  ensureConsoleBuilt();
  // A quick supervisor, so a started source is running within a moment.
  const kernel = await startKernel({ settings: { components: { supervisor_interval_ms: 200 } }, ...overrides });
  const adminToken = await loginAdmin(kernel);
  const credentials = { admin: bootstrapCredentials() } as ConsoleHarness['credentials'];
  for (const role of ROLES.filter((r) => r !== 'admin')) {
    const username = unique(role);
    const password = `pw-${role}-${Math.random().toString(36).slice(2)}-Aa1!`;
    await createUser(kernel, adminToken, { username, password, roles: [role] });
    credentials[role] = { tenant_id: 'default', username, password };
  }
  const browser = await acquireBrowser();
  const problems: string[] = [];
  const contexts: BrowserContext[] = [];

  const newPage = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ baseURL: kernel.url, locale: 'en-GB', timezoneId: 'UTC' });
    contexts.push(context);
    const page = await context.newPage();
    watch(page, problems);
    return { context, page };
  };

  return {
    kernel,
    url: kernel.url,
    adminToken,
    browser,
    credentials,
    api: (method, path, options = {}) => kernel.request(method, path, { token: adminToken, ...options }),
    async signedInPage(role, path = '/console/') {
      const opened = await newPage();
      const res = await opened.context.request.post('/auth/browser/login', {
        data: credentials[role],
        headers: { 'X-Runtime-CSRF': '1', origin: kernel.url },
      });
      if (res.status() !== 200)
        throw new Error(`browser sign-in as ${role} answered ${res.status()}: ${await res.text()}`);
      await opened.page.goto(path);
      return opened;
    },
    async anonymousPage(path = '/console/') {
      const opened = await newPage();
      await opened.page.goto(path);
      return opened;
    },
    assertCleanConsole() {
      const found = problems.splice(0);
      if (found.length) throw new Error(`the browser reported:\n${found.join('\n')}`);
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      releaseBrowser();
      await kernel.close();
    },
  };
}

/** Whether the kernel serves the console (the console plugin is enabled and the app is built). */
export async function consoleServed(kernel: TestKernel): Promise<boolean> {
  const res = await kernel.request('GET', '/console/');
  return res.status === 200 && res.text.includes('<div id="root">');
}

/**
 * A describe's `before`: skips its tests (saying why) when Debian's Chromium is missing or the
 * kernel does not serve the console, else boots the harness. Building the app when its sources
 * changed and booting the kernel take a while on a busy machine, hence the hook's own timeout.
 */
export async function consoleOrSkip(
  context: Mocha.Context,
  overrides: Record<string, unknown> = {},
): Promise<ConsoleHarness> {
  context.timeout(300_000);
  const missing = browserUnavailable();
  if (missing) {
    console.log(`      skipped: ${missing}`);
    context.skip();
  }
  const h = await startConsole(overrides);
  if (!(await consoleServed(h.kernel))) {
    await h.close();
    console.log('      skipped: the kernel does not serve /console/ (console plugin not enabled in the test profile)');
    context.skip();
  }
  return h;
}

/**
 * Waits for something the page shows (no fixed sleeps). On timeout the error carries what the
 * page did show instead (its alerts and the start of its main text), so a failure in CI says why.
 */
export async function visible(page: Page, locator: Locator, what: string, timeout = 15_000): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch {
    const alerts = await page
      .getByRole('alert')
      .allTextContents()
      .catch(() => [] as string[]);
    const main = await page
      .locator('main, body')
      .first()
      .textContent({ timeout: 1_000 })
      .catch(() => '(the page could not be read)');
    const shown = {
      alerts: alerts.map((a) => a.trim()).filter(Boolean),
      main: (main ?? '').replace(/\s+/g, ' ').trim().slice(0, 600),
    };
    throw new Error(
      `${what} did not show within ${timeout} ms (at ${page.url()}); alerts: ${JSON.stringify(shown.alerts)}; page: ${shown.main}`,
    );
  }
}
