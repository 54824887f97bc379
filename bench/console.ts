import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { fromRoot } from '../kernel/paths.js';
import { startKernel, type TestKernel } from '../test/support/kernel.js';
import { bootstrapCredentials, loginAdmin } from '../test/support/identity.js';
import { ensureConsoleBuilt } from '../test/plugins/console/support/build.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/plugins/console/support/browser.js';
import type { Scenario } from './scenarios.js';

const DIST = fromRoot('plugins', 'console', 'app', 'dist');
const BUDGET_KB = 250;
const MESSAGES = Number(process.env.BENCH_CONSOLE_MESSAGES ?? 10_000);

function gzipKb(file: string): number {
  return Math.round((gzipSync(readFileSync(file), { level: 9 }).length / 1024) * 10) / 10;
}

/**
 * The JavaScript a first visit loads: the entry script and the chunks index.html preloads.
 * Every page is its own chunk loaded when its route is opened; none may be in this set.
 */
function bundleFigures(): Record<string, unknown> {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
  const initialKb = Math.round(initial.reduce((sum, file) => sum + gzipKb(join(DIST, file)), 0) * 10) / 10;
  const chunks = readdirSync(join(DIST, 'assets')).filter((f) => f.endsWith('.js'));
  const pages = chunks.filter((f) => /Page-[\w-]+\.js$/.test(f));
  const eagerPages = pages.filter((f) => initial.includes(`assets/${f}`));
  const largestLazy = chunks
    .filter((f) => !initial.includes(`assets/${f}`))
    .map((f) => ({ chunk: f, gzip_kb: gzipKb(join(DIST, 'assets', f)) }))
    .sort((a, b) => b.gzip_kb - a.gzip_kb)
    .slice(0, 5);
  return {
    initial_js_gzip_kb: initialKb,
    initial_js_files: initial.length,
    budget_kb: BUDGET_KB,
    within_budget: initialKb <= BUDGET_KB,
    page_chunks: pages.length,
    page_chunks_loaded_eagerly: eagerPages.length,
    largest_lazy_chunks: largestLazy,
  };
}

/** Signs in through the browser-session route and returns the Cookie header it set. */
async function sessionCookie(url: string): Promise<string> {
  const res = await fetch(`${url}/auth/browser/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Runtime-CSRF': '1', origin: url },
    body: JSON.stringify(bootstrapCredentials()),
  });
  if (res.status !== 200) throw new Error(`browser sign-in answered ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/**
 * Lighthouse (desktop preset) performance and accessibility scores of one console page; a run
 * whose trace Chromium failed to record is run once more.
 */
async function lighthouseScores(
  url: string,
  cookie?: string,
): Promise<{ performance: number; accessibility: number; lcp_ms: number; tbt_ms: number }> {
  try {
    return await lighthouseRun(url, cookie);
  } catch {
    return await lighthouseRun(url, cookie);
  }
}

async function lighthouseRun(
  url: string,
  cookie?: string,
): Promise<{ performance: number; accessibility: number; lcp_ms: number; tbt_ms: number }> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_ARGS });
  try {
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
      },
      desktopConfig,
    );
    if (!result) throw new Error('lighthouse returned no result');
    // A failed trace (NO_NAVSTART, NO_FCP…) leaves the performance score empty: an error, not a 0.
    if (result.lhr.runtimeError) throw new Error(`lighthouse: ${result.lhr.runtimeError.code}`);
    const { categories, audits } = result.lhr;
    return {
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      lcp_ms: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      tbt_ms: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
    };
  } finally {
    chrome.kill();
  }
}

async function seedMessages(kernel: TestKernel, token: string, stream: string, count: number): Promise<void> {
  const created = await kernel.request('POST', '/streams', { token, body: { id: stream, name: stream } });
  if (created.status !== 201) throw new Error(`creating the stream answered ${created.status}`);
  for (let at = 0; at < count; at += 1000) {
    const messages = Array.from({ length: Math.min(1000, count - at) }, (_, i) => ({
      key: `k-${(at + i) % 97}`,
      value: { n: at + i, text: `message number ${at + i}`, ok: (at + i) % 3 === 0 },
    }));
    const res = await kernel.request('POST', `/streams/${stream}/messages`, { token, body: { messages } });
    if (res.status !== 201 && res.status !== 200) throw new Error(`publishing answered ${res.status}: ${res.text}`);
  }
}

/**
 * Time to interactive of the message browser on a stream of MESSAGES messages: from navigation
 * to the first row's button being usable; then scrolls to the end, sampling how many rows the
 * document holds (virtualised: about a screenful, however many are loaded).
 */
async function messageBrowserFigures(kernel: TestKernel, token: string): Promise<Record<string, unknown>> {
  const stream = `bench-console-${Date.now().toString(36)}`;
  await seedMessages(kernel, token, stream, MESSAGES);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ baseURL: kernel.url, viewport: { width: 1280, height: 900 } });
    const login = await context.request.post('/auth/browser/login', {
      data: bootstrapCredentials(),
      headers: { 'X-Runtime-CSRF': '1', origin: kernel.url },
    });
    if (login.status() !== 200) throw new Error(`browser sign-in answered ${login.status()}`);
    const page = await context.newPage();
    await page.goto('/console/');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const started = Date.now();
    await page.goto(`/console/streams/${stream}`);
    await page.getByRole('button', { name: /offset 0 of partition 0/ }).waitFor();
    const ttiMs = Date.now() - started;
    const grid = page.getByRole('table', { name: 'Stream messages' });
    // Scrolls the list to its end and counts the rows in the document against the rows loaded.
    const scrollToEnd = `(() => {
      const el = document.querySelector('[role=table][aria-label="Stream messages"]');
      el.scrollTop = el.scrollHeight;
      return { rendered: el.querySelectorAll('[role=row]').length - 1, total: Number(el.getAttribute('aria-rowcount')) - 1 };
    })()`;
    let maxRendered = 0;
    const allStarted = Date.now();
    for (let step = 0; step < 600; step++) {
      const state = (await page.evaluate(scrollToEnd)) as { rendered: number; total: number };
      maxRendered = Math.max(maxRendered, state.rendered);
      if (state.total >= MESSAGES) break;
      await page.waitForTimeout(50);
    }
    const loaded = Number(await grid.getAttribute('aria-rowcount')) - 1;
    const lastVisible = await page
      .getByRole('button', { name: new RegExp(`offset ${MESSAGES - 1} of partition 0`) })
      .isVisible();
    return {
      messages: MESSAGES,
      time_to_interactive_ms: ttiMs,
      rows_loaded: loaded,
      time_to_scroll_all_ms: Date.now() - allStarted,
      max_rows_in_document: maxRendered,
      last_message_reachable: lastVisible,
    };
  } finally {
    await browser.close();
  }
}

export const consoleScenario: Scenario = {
  name: 'console',
  title:
    'web console: initial JS size (gzip), Lighthouse scores of sign-in and dashboard, message browser time to interactive',
  async run() {
    ensureConsoleBuilt();
    const bundle = bundleFigures();
    const kernel = await startKernel();
    try {
      const token = await loginAdmin(kernel);
      // Each part reports its own failure, so one broken measurement keeps the others' figures.
      const part = <T>(work: () => Promise<T>): Promise<T | { error: string }> =>
        work().catch((err: Error) => ({ error: err.message }));
      const loadAtStart = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
      const signIn = await part(() => lighthouseScores(`${kernel.url}/console/sign-in`));
      const dashboard = await part(async () =>
        lighthouseScores(`${kernel.url}/console/`, await sessionCookie(kernel.url)),
      );
      const browserFigures = await part(() => messageBrowserFigures(kernel, token));
      return {
        // Lighthouse times what the machine gives it: a busy machine lowers the scores.
        load_average: {
          at_start: loadAtStart,
          at_end: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
        },
        ...bundle,
        lighthouse_preset: 'desktop',
        lighthouse_sign_in: signIn,
        lighthouse_dashboard: dashboard,
        lighthouse_goal: 95,
        message_browser: browserFigures,
      };
    } finally {
      await kernel.close();
    }
  },
};
