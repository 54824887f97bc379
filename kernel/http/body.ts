import getRawBody from 'raw-body';
import type { Context } from 'koa';
import { ApiError } from '../errors.js';

export type BodyType = 'json' | 'octet-stream' | 'json-or-octet-stream' | 'bytes' | 'none';

function hasBody(ctx: Context): boolean {
  const length = ctx.get('content-length');
  return ctx.get('transfer-encoding') !== '' || (length !== '' && length !== '0');
}

/** The Content-Type almost every JSON call sends, told without parsing it (ctx.is decides every other). */
function isJson(type: string | undefined): boolean {
  return type === 'application/json' || type === 'application/json; charset=utf-8';
}

async function readRaw(ctx: Context, limit: number): Promise<Buffer> {
  try {
    const length = ctx.get('content-length');
    return await getRawBody(ctx.req, length ? { limit, length } : { limit });
  } catch (err) {
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large')
      throw new ApiError('payload_too_large', `The request body is larger than ${limit} bytes.`);
    throw new ApiError('bad_request', 'The request body could not be read.');
  }
}

/**
 * Reads the body a route declares: JSON (size-limited; malformed → 400 invalid_json) or raw
 * bytes for octet-stream routes. A route without a body ignores an empty one.
 */
export async function readBody(
  ctx: Context,
  type: BodyType,
  limits: { json: number; binary: number },
): Promise<unknown> {
  if (!hasBody(ctx)) return undefined;
  // Whatever its Content-Type (a webhook's sender chooses it): the exact bytes, for signatures.
  if (type === 'bytes') return readRaw(ctx, limits.binary);
  if (type === 'octet-stream' || (type === 'json-or-octet-stream' && ctx.is('application/octet-stream'))) {
    if (!ctx.is('application/octet-stream'))
      throw new ApiError('unsupported_media_type', 'This route takes Content-Type: application/octet-stream.');
    return readRaw(ctx, limits.binary);
  }
  const raw = await readRaw(ctx, limits.json);
  if (raw.length === 0) return undefined;
  if (type === 'none') return undefined;
  if (!isJson(ctx.req.headers['content-type']) && !ctx.is('application/json', '+json'))
    throw new ApiError('unsupported_media_type', 'This route takes Content-Type: application/json.');
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new ApiError('invalid_json');
  }
}
