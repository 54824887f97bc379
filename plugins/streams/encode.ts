import { createHash } from 'node:crypto';
import { ApiError, type ErrorDetail } from '../../kernel/errors.js';
import { canonicalJson } from '../../kernel/plugin/api.js';
import type { CodecWriter, NewMessage } from './backend.js';
import type { StreamCodec } from './contract.js';
import { messageId, messageIds } from './ids.js';
import { partitionFor } from './partition.js';

/** A message as a publisher sends it in a JSON batch. */
export interface PublishedMessage {
  key?: string;
  headers?: Record<string, string>;
  value?: unknown;
  body_base64?: string;
}

export interface Limits {
  maxMessageBytes: number;
  maxBatchBytes: number;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function refused(
  code: 'validation_error' | 'payload_too_large',
  index: number,
  field: string,
  message: string,
): ApiError {
  const detail: ErrorDetail = { in: 'body', pointer: `/messages/${index}${field ? `/${field}` : ''}`, message };
  return new ApiError(code, `Message ${index}: ${message}.`, { details: [detail] });
}

/** The problem a codec reported, as text for the error naming the message. */
function problemOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Turns published messages into stored ones: a `value` is encoded by the stream's codec (JSON
 * without one); `body_base64` is decoded strictly and, on a stream with a codec, must decode
 * with it. Every refusal names the message's index.
 */
export function encodeBatch(
  input: readonly PublishedMessage[],
  stream: { partitions: number; codec?: string | null },
  codec: StreamCodec | undefined,
  limits: Limits,
): NewMessage[] {
  let total = 0;
  const writer = writerOf(stream, codec);
  // Ids for the whole batch at once: contiguous, so the nats backend indexes the batch as one row.
  const ids = messageIds(input.length);
  return input.map((message, index) => {
    let body: Buffer;
    let contentType: string;
    if (message.body_base64 !== undefined) {
      if (!BASE64.test(message.body_base64))
        throw refused('validation_error', index, 'body_base64', 'body_base64 is not valid base64');
      body = Buffer.from(message.body_base64, 'base64');
      contentType = codec ? codec.contentType : 'application/octet-stream';
      if (codec) checkDecodes(codec, body, index);
    } else if (message.value !== undefined) {
      if (codec) {
        try {
          body = Buffer.from(codec.encode(message.value));
        } catch (err) {
          throw refused(
            'validation_error',
            index,
            'value',
            `the value does not fit the stream's codec: ${problemOf(err)}`,
          );
        }
        contentType = codec.contentType;
      } else {
        body = Buffer.from(JSON.stringify(message.value), 'utf8');
        contentType = 'application/json';
      }
    } else {
      throw refused('validation_error', index, '', 'send value or body_base64');
    }
    if (body.length > limits.maxMessageBytes)
      throw refused(
        'payload_too_large',
        index,
        '',
        `the body is ${body.length} bytes, more than the limit of ${limits.maxMessageBytes}`,
      );
    total += body.length;
    if (total > limits.maxBatchBytes)
      throw refused('payload_too_large', index, '', `the batch exceeds ${limits.maxBatchBytes} bytes here`);
    const key = message.key ?? null;
    return {
      id: ids[index] as string,
      partition: partitionFor(key, stream.partitions),
      key,
      headers: message.headers ?? {},
      contentType,
      body,
      replayOf: null,
      writer,
    };
  });
}

/** The codec revision a stream's bodies are written (or, sent as bytes, checked) with, when its codec has revisions. */
function writerOf(stream: { codec?: string | null }, codec: StreamCodec | undefined): CodecWriter | null {
  return codec && codec.revision !== undefined && stream.codec
    ? { codec: stream.codec, revision: codec.revision }
    : null;
}

function checkDecodes(codec: StreamCodec, body: Buffer, index: number): void {
  try {
    codec.decode(body);
  } catch (err) {
    throw refused(
      'validation_error',
      index,
      'body_base64',
      `the body does not decode with the stream's codec: ${problemOf(err)}`,
    );
  }
}

/** One raw body (application/octet-stream publish), checked like a batch of one. */
export function encodeRaw(
  body: Buffer,
  key: string | null,
  stream: { partitions: number; codec?: string | null },
  codec: StreamCodec | undefined,
  limits: Limits,
): NewMessage[] {
  if (body.length > limits.maxMessageBytes)
    throw refused(
      'payload_too_large',
      0,
      '',
      `the body is ${body.length} bytes, more than the limit of ${limits.maxMessageBytes}`,
    );
  if (codec) checkDecodes(codec, body, 0);
  return [
    {
      id: messageId(),
      partition: partitionFor(key, stream.partitions),
      key,
      headers: {},
      contentType: codec ? codec.contentType : 'application/octet-stream',
      body,
      replayOf: null,
      writer: writerOf(stream, codec),
    },
  ];
}

/** What "the same publish" means for an idempotency key: the same messages (keys, headers, bodies). */
export function batchFingerprint(messages: readonly NewMessage[]): string {
  const shape = messages.map((m) => [
    m.key,
    m.headers,
    m.contentType,
    createHash('sha256').update(m.body).digest('base64url'),
  ]);
  return createHash('sha256').update(canonicalJson(shape)).digest('base64url');
}

/**
 * What the backend de-duplicates a keyed publish by: the key and the messages. A retry of the same
 * publish repeats it (JetStream drops what an uncommitted earlier attempt already stored), while
 * other messages under a key whose earlier attempt never committed are a new publish, not repeats.
 */
export function dedupKeyOf(idempotencyKey: string, fingerprint: string): string {
  return `${idempotencyKey}:${fingerprint}`;
}
