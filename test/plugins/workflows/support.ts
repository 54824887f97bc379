import { expect } from 'chai';
import type { TestKernel } from '../../support/kernel.js';

export async function createStream(tk: TestKernel, id: string, partitions = 1, token?: string): Promise<void> {
  const res = await tk.request('POST', '/streams', { body: { id, name: id, partitions }, ...(token ? { token } : {}) });
  expect(res.status, res.text).to.equal(201);
}

export async function publish(tk: TestKernel, stream: string, messages: unknown[], token?: string): Promise<string[]> {
  const res = await tk.request('POST', `/streams/${stream}/messages`, {
    body: { messages },
    ...(token ? { token } : {}),
  });
  expect(res.status, res.text).to.equal(201);
  return res.body.messages.map((m: { id: string }) => m.id);
}

/** Every message of a stream (all partitions), in (partition, offset) order. */
export async function readAll(tk: TestKernel, stream: string, token?: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await tk.request(
      'GET',
      `/streams/${stream}/messages?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      token ? { token } : {},
    );
    expect(res.status, res.text).to.equal(200);
    out.push(...res.body.items);
    cursor = res.headers.get('x-next-cursor');
  } while (cursor);
  return out;
}

export async function deploy(tk: TestKernel, id: string, requestId: string, revision?: number): Promise<any> {
  const res = await tk.request('POST', `/workflows/${id}/deploy`, {
    body: { request_id: requestId, ...(revision ? { revision } : {}) },
  });
  expect(res.status, res.text).to.equal(200);
  return res.body;
}
