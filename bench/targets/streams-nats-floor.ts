import { connect } from 'nats';
import { serveJsonPost } from './serve.js';

/**
 * The floor of the nats publish benchmark: a hand-written Koa handler that does only what any HTTP
 * publish of a JSON batch to JetStream must do — read and parse the body, serialise each message's
 * value, publish them all with their acks outstanding at once, answer the offsets. No auth,
 * validation, database or audit. Whatever separates it from raw in-process publishes is the price
 * of HTTP and JSON, which no REST implementation can avoid; the kernel is measured against it too.
 * The bench owns the JetStream stream (BENCH_NATS_SUBJECT names a subject it takes).
 */
const subject = process.env.BENCH_NATS_SUBJECT as string;
// The same client options as the streams backend's connection (no async traces).
const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', noAsyncTraces: true });
const js = nc.jetstream();
serveJsonPost('/streams/bench/messages', async (parsed) => {
  const body = parsed as { messages: Array<{ key?: string; value: unknown }> };
  const acks = await Promise.all(body.messages.map((m) => js.publish(subject, Buffer.from(JSON.stringify(m.value)))));
  return { status: 201, body: { messages: acks.map((a) => ({ partition: 0, offset: a.seq })) } };
});
