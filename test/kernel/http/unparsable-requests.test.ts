import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import { pino } from 'pino';
import { answerClientErrors } from '../../../kernel/http/client-error.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Every HTTP/1.1 response in `raw`, read by Content-Length (the kernel always sends one here). */
function parseReplies(raw: string): RawReply[] {
  const replies: RawReply[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) throw new Error(`an incomplete response head: ${JSON.stringify(rest)}`);
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    replies.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return replies;
}

/** In the parts of an exchange: wait until the server has answered something before going on. */
const AWAIT_REPLY = Symbol('await reply');

/**
 * Sends `parts` over one fresh connection, one after the other, and reads until the server
 * closes it. The client never closes first, so a server that neither answers nor closes fails
 * the test by its timeout.
 */
async function exchange(
  url: string,
  parts: Array<string | Buffer | typeof AWAIT_REPLY>,
): Promise<{ replies: RawReply[]; reset: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let reset = false;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') reset = true;
      else reject(err);
    });
    socket.on('close', () => {
      try {
        resolve({ replies: parseReplies(Buffer.concat(chunks).toString('latin1')), reset });
      } catch (err) {
        reject(err);
      }
    });
    const answered = new Promise((done) => socket.once('data', done));
    socket.on('connect', async () => {
      for (const part of parts) {
        if (part === AWAIT_REPLY) {
          await answered;
          continue;
        }
        if (socket.destroyed || socket.writableEnded) return;
        // Written whole before the next part, as a client sending a long head would.
        await new Promise<void>((done) => socket.write(part, () => done()));
      }
    });
  });
}

const HEAD_LIMIT = 16 * 1024;

describe('requests the HTTP parser refuses are answered in the error shape', function () {
  this.timeout(60000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system'], auth: { mode: 'none' } });
  });
  after(() => tk.close());

  function expectError(reply: RawReply | undefined, status: number, code: string): void {
    expect(reply, 'a reply').to.not.equal(undefined);
    expect(reply?.status).to.equal(status);
    expect(reply?.headers['content-type']).to.match(/^application\/json/);
    expect(reply?.headers.connection).to.equal('close');
    expect(reply?.headers['x-content-type-options']).to.equal('nosniff');
    expect(reply?.headers['cache-control']).to.equal('no-store');
    const body = JSON.parse(reply?.body ?? '') as { error: { code: string; message: string; status: number } };
    expect(body.error).to.include({ code, status });
    expect(body.error.message).to.be.a('string').and.not.equal('');
  }

  it('answers a request head over the limit with 431 request_header_fields_too_large and closes', async () => {
    const { replies } = await exchange(tk.url, [
      `GET /live HTTP/1.1\r\nHost: kernel\r\nX-Padding: ${'a'.repeat(HEAD_LIMIT + 1024)}\r\n\r\n`,
    ]);
    expect(replies).to.have.length(1);
    expectError(replies[0], 431, 'request_header_fields_too_large');
    expect(JSON.parse(replies[0]?.body ?? '').error.message).to.include(String(HEAD_LIMIT));
  });

  it('answers 431 on a kept-alive connection that already served a request', async () => {
    const { replies } = await exchange(tk.url, [
      'GET /live HTTP/1.1\r\nHost: kernel\r\n\r\n',
      AWAIT_REPLY,
      `GET /live HTTP/1.1\r\nHost: kernel\r\nX-Padding: ${'a'.repeat(HEAD_LIMIT + 1024)}\r\n\r\n`,
    ]);
    expect(replies.map((r) => r.status)).to.deep.equal([200, 431]);
    expectError(replies[1], 431, 'request_header_fields_too_large');
  });

  it('answers 431 after the response to a request pipelined before it, never inside that response', async () => {
    const { replies } = await exchange(tk.url, [
      'GET /live HTTP/1.1\r\nHost: kernel\r\n\r\n',
      `GET /live HTTP/1.1\r\nHost: kernel\r\nX-Padding: ${'a'.repeat(HEAD_LIMIT + 1024)}\r\n\r\n`,
    ]);
    expect(replies.map((r) => r.status)).to.deep.equal([200, 431]);
    expect(JSON.parse(replies[0]?.body ?? '')).to.deep.equal({ status: 'alive' });
    expectError(replies[1], 431, 'request_header_fields_too_large');
  });

  it('delivers the 431 to a client still sending a head of a megabyte, without resetting it', async () => {
    const padding = Buffer.alloc(64 * 1024, 'a');
    const { replies, reset } = await exchange(tk.url, [
      'GET /live HTTP/1.1\r\nHost: kernel\r\nX-Padding: ',
      ...Array.from({ length: 16 }, () => padding),
      '\r\n\r\n',
    ]);
    expect(reset).to.equal(false);
    expect(replies).to.have.length(1);
    expectError(replies[0], 431, 'request_header_fields_too_large');
  });

  it('answers a malformed request with 400 bad_request in the error shape and closes', async () => {
    for (const request of [
      'NOT HTTP AT ALL\r\n\r\n',
      'GET /live HTTP/1.1\r\nHost: kernel\r\nNo colon here\r\n\r\n',
      'GET /live HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
    ]) {
      const { replies } = await exchange(tk.url, [request]);
      expect(replies, JSON.stringify(request)).to.have.length(1);
      expectError(replies[0], 400, 'bad_request');
    }
  });

  it('keeps serving other connections afterwards', async () => {
    await exchange(tk.url, [
      `GET /live HTTP/1.1\r\nHost: kernel\r\nX-Padding: ${'a'.repeat(HEAD_LIMIT + 1024)}\r\n\r\n`,
    ]);
    const res = await tk.request('GET', '/live');
    expect(res.status).to.equal(200);
  });

  it('answers a request head that does not arrive in time with 408 request_timeout', async () => {
    // The kernel keeps Node's head deadline (a minute); a server of its own with a short one shows the reply.
    const server = http.createServer({ headersTimeout: 300, requestTimeout: 400, connectionsCheckingInterval: 50 });
    server.on(
      'request',
      answerClientErrors(server, pino({ level: 'silent' }), (_req, res) => res.end()),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const { replies } = await exchange(`http://127.0.0.1:${port}`, ['GET /live HTTP/1.1\r\nHost: kernel\r\n']);
      expect(replies).to.have.length(1);
      expectError(replies[0], 408, 'request_timeout');
    } finally {
      server.close();
    }
  });
});
