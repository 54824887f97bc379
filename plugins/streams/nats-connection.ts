import { connect, type JetStreamClient, type JetStreamManager, type MsgHdrs, type NatsConnection } from 'nats';
import { ApiError } from '../../kernel/errors.js';
import { jetStreamPublisher } from './jetstream-publisher.js';

/** How long a batch waits for JetStream's acknowledgements (the client's own default for one). */
const PUBLISH_TIMEOUT_MS = 5_000;

/** The manager's direct-get API: present on the client's manager, missing from its declared interface. */
interface DirectGets {
  direct: {
    getMessage(
      stream: string,
      query: { seq: number; next_by_subj: string },
    ): Promise<{ seq: number; data: Uint8Array; header: MsgHdrs }>;
  };
}

export interface Connected {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager & DirectGets;
  publisher: ReturnType<typeof jetStreamPublisher>;
}

/**
 * The backend's one connection to the NATS server, opened on first use and again after it
 * closes: the kernel starts without NATS being up, and a call made while it is down answers 503
 * with Retry-After instead of failing the kernel.
 */
export function natsConnection(url: string): { get(): Promise<Connected>; close(): Promise<void> } {
  let connection: Promise<Connected> | undefined;

  function get(): Promise<Connected> {
    connection ??= (async () => {
      // No async traces: the client otherwise builds two Error objects (stack traces) per publish
      // in case its request times out, a fifth of the publishing process's CPU under load.
      const nc = await connect({ servers: url, reconnectTimeWait: 500, noAsyncTraces: true });
      void nc.closed().then(() => {
        connection = undefined;
      });
      return {
        nc,
        js: nc.jetstream(),
        jsm: (await nc.jetstreamManager()) as JetStreamManager & DirectGets,
        publisher: jetStreamPublisher(nc, PUBLISH_TIMEOUT_MS),
      };
    })().catch((err: unknown) => {
      connection = undefined;
      throw new ApiError('unavailable', 'The NATS server of the streams backend is unreachable; retry later.', {
        headers: { 'Retry-After': '5' },
        cause: err,
      });
    });
    return connection;
  }

  async function close(): Promise<void> {
    const open = connection;
    connection = undefined;
    if (open) await (await open.catch(() => undefined))?.nc.drain();
  }

  return { get, close };
}
