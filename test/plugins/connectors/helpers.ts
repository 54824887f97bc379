import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { until } from '../../support/poll.js';

/** A kernel with the runtime's plugins, no authenticator, a quick supervisor and short leases. */
export function runtimeKernel(
  overrides: Record<string, unknown> = {},
  options: { schema?: string } = {},
): Promise<TestKernel> {
  return startKernel(
    {
      plugins: ['system', 'audit', 'logs', 'components', 'streams', 'connectors'],
      auth: { mode: 'none' },
      jobs: { lease_ms: 3000 },
      settings: {
        components: { supervisor_interval_ms: 200 },
        connectors: { http: { allow: ['loopback'] }, connect_timeout_ms: 2000 },
      },
      ...overrides,
    },
    options,
  );
}

/** A name no other run or engineer uses (brokers are shared). */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

export async function makeStream(tk: TestKernel, id: string): Promise<void> {
  const res = await tk.request('POST', '/streams', { body: { id, name: id } });
  expect(res.status, res.text).to.equal(201);
}

export async function makeComponent(tk: TestKernel, body: Record<string, unknown>): Promise<any> {
  const res = await tk.request('POST', '/components', { body });
  expect(res.status, res.text).to.equal(201);
  return res.body;
}

export async function start(tk: TestKernel, id: string): Promise<void> {
  const res = await tk.request('POST', `/components/${id}/start`, { body: {} });
  expect(res.status, res.text).to.equal(200);
}

export async function statusOf(
  tk: TestKernel,
  id: string,
): Promise<{ state: string; last_error: string | null; since: string }> {
  return (await tk.request('GET', `/components/${id}`)).body.status;
}

export function waitForState(tk: TestKernel, id: string, state: string, timeoutMs = 30_000) {
  return until(
    async () => {
      const status = await statusOf(tk, id);
      return status.state === state ? status : undefined;
    },
    timeoutMs,
    { what: `component ${id} ${state}` },
  );
}

/** Every message of a stream through the API (GET /streams/{id}/messages), in order. */
export async function messagesOf(tk: TestKernel, stream: string): Promise<any[]> {
  const res = await tk.request('GET', `/streams/${stream}/messages?limit=1000`);
  expect(res.status, res.text).to.equal(200);
  return res.body.items;
}

export const textOf = (m: any): string =>
  m.value !== undefined
    ? typeof m.value === 'string'
      ? m.value
      : JSON.stringify(m.value)
    : Buffer.from(m.body_base64, 'base64').toString('utf8');
