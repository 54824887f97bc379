import {
  STATUS_CODES,
  maxHeaderSize,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { ApiError } from '../errors.js';
import { RESPONSE_HEADERS } from './response-headers.js';

/**
 * How long a connection whose request could not be parsed stays open after the error reply, so
 * the client can finish sending and read the reply before the socket goes (closing with unread
 * input makes the kernel send a reset, which can destroy the reply on its way).
 */
const LINGER_MS = 2000;

/**
 * The error reply for a request Node's HTTP parser refused before any route could see it. The
 * kernel keeps Node's head limit (`maxHeaderSize`, 16 KiB unless `--max-http-header-size` says otherwise).
 */
function errorFor(err: NodeJS.ErrnoException): ApiError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(
        'request_header_fields_too_large',
        `The request line and headers are larger than ${maxHeaderSize} bytes.`,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('payload_too_large', 'The chunk extensions of the request body are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout', 'The request was not received in time.');
    default:
      return new ApiError('bad_request', 'The request is not valid HTTP/1.1.');
  }
}

function rawResponse(error: ApiError): string {
  const body = JSON.stringify(error.toBody());
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    ...RESPONSE_HEADERS,
    Connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n${head}\r\n${body}`;
}

/**
 * Answers requests Node's HTTP parser refuses (a head over `maxHeaderSize` → 431, a malformed
 * request → 400, a request too slow to arrive → 408) with the error body every other error has
 * and `Connection: close`, where Node's own reply has no body and, closing at once, can be lost
 * to a reset. A response still being sent on the connection (a pipelined request before this
 * one) is finished first, so the error reply never cuts into it.
 *
 * Returns the server's request listener: `handle`, noting each response first. One listener
 * rather than a second one of its own: Node copies the listener list on every emit of several.
 */
export function answerClientErrors(server: Server, logger: Logger, handle: RequestListener): RequestListener {
  const lastResponse = new WeakMap<Socket, ServerResponse>();
  const answered = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // The parser reports again for every later chunk of the same connection: answer once.
    if (answered.has(socket)) return;
    answered.add(socket);
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const error = errorFor(err);
    logger.debug({ code: err.code, status: error.status }, 'request refused by the HTTP parser');
    const answer = (): void => {
      if (!socket.writable) return void socket.destroy();
      socket.end(rawResponse(error));
      // Read and drop what the client still sends, so closing does not reset the connection.
      socket.resume();
      socket.setTimeout(LINGER_MS, () => socket.destroy());
    };
    // A pipelined request before this one may still be answering: the error reply goes after it.
    const inFlight = lastResponse.get(socket);
    if (inFlight && !inFlight.writableFinished) inFlight.once('close', answer);
    else answer();
  });
  return (req: IncomingMessage, res: ServerResponse) => {
    lastResponse.set(req.socket, res);
    handle(req, res);
  };
}
