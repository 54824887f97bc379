import { ApiError } from '../../kernel/errors.js';
import { afterKey, canonicalJson, pageOf, slugify } from '../../kernel/plugin/api.js';
import type { Call, Clock, Handler } from '../../kernel/types.js';
import type { CodecKind, CompatibilityProblem } from './contract.js';
import type { KindRegistry } from './kind-registry.js';
import { decodeRefusal, encodeRefusal, incompatibility, schemaRefusal } from './refusals.js';
import { CodecStore, type Codec } from './store.js';

interface CreateBody {
  id?: string;
  name: string;
  kind: string;
  schema?: unknown;
}

interface ReplaceBody {
  name: string;
  kind?: string;
  schema?: unknown;
}

function tenant(call: Call): string {
  return call.tenantId as string;
}

function idParam(call: Call): string {
  return String(call.params.id);
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', `No codec "${id}".`);
}

/** The entity tag of a codec: its revision, which every change moves on. */
function etag(codec: Codec): string {
  return `"${codec.revision}"`;
}

/**
 * If-Match (RFC 9110 §13.1.1): `*` or a list of entity tags, compared strongly (a weak tag never
 * matches). Absent: the change applies to whatever revision is current.
 */
function checkIfMatch(call: Call, codec: Codec): void {
  const header = call.headers['if-match'];
  if (header === undefined || header.trim() === '') return;
  const tags = header.split(',').map((tag) => tag.trim());
  if (tags.includes('*') || tags.includes(etag(codec))) return;
  throw new ApiError('precondition_failed', `Codec "${codec.id}" is at revision ${codec.revision} (ETag ${etag(codec)}), not ${header}; read it again and retry.`, {
    details: [{ in: 'headers', pointer: '/if-match', message: `does not match the current ETag ${etag(codec)}` }],
  });
}

/** What a change from `current` to (`kind`, `schema`) breaks for data already written. */
function compatibilityProblems(current: Codec, kind: CodecKind, schema: unknown): CompatibilityProblem[] {
  if (kind.kind !== current.kind) {
    return [{ path: '/kind', problem: `the kind changed from ${current.kind} to ${kind.kind}: data written as ${current.kind} does not read as ${kind.kind}` }];
  }
  if (!kind.compatibility || canonicalJson(current.schema ?? null) === canonicalJson(schema ?? null)) return [];
  try {
    return kind.compatibility(current.schema ?? undefined, schema ?? undefined);
  } catch (error) {
    throw schemaRefusal(error);
  }
}

export function codecHandlers(kinds: KindRegistry, clock: Clock): Record<string, Handler> {
  /** The codec named by the path, compiled for decoding and encoding. */
  async function compiledFor(call: Call) {
    const codec = await new CodecStore(call.db).get(tenant(call), idParam(call));
    if (!codec) throw notFound(idParam(call));
    const kind = kinds.stored(codec.kind, codec.id);
    return { codec, kind, compiled: kinds.compile(kind, codec.schema) };
  }

  return {
    listCodecKinds(call) {
      const page = pageOf(call);
      const after = afterKey(page);
      const items = kinds
        .entries()
        .map(({ plugin, kind }) => ({ kind: kind.kind, plugin, schema_schema: kind.schemaSchema, schema_evolution: kind.compatibility !== undefined }))
        .filter((k) => after === undefined || k.kind > after);
      return { status: 200, body: { items: items.slice(0, page.fetch) } };
    },

    async listCodecs(call) {
      const page = pageOf(call);
      const after = afterKey(page);
      const filter = { fetch: page.fetch, ...(after !== undefined ? { afterId: after } : {}), ...(typeof call.query.kind === 'string' ? { kind: call.query.kind } : {}) };
      return { status: 200, body: { items: await new CodecStore(call.db).list(tenant(call), filter) } };
    },

    async createCodec(call) {
      const body = call.body as CreateBody;
      const id = body.id ?? slugify(body.name);
      if (!id) throw new ApiError('validation_error', 'The name yields an empty id; send an id.', { details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }] });
      const kind = kinds.requested(body.kind);
      kinds.compile(kind, body.schema);
      call.resourceId = id;
      const codec = await new CodecStore(call.db).insert(tenant(call), id, { name: body.name, kind: kind.kind, schema: body.schema ?? null }, call.principal?.subjectId ?? null, clock.now());
      return { status: 201, body: codec, headers: { Location: `/codecs/${id}`, ETag: etag(codec) } };
    },

    async getCodec(call) {
      const codec = await new CodecStore(call.db).get(tenant(call), idParam(call));
      if (!codec) throw notFound(idParam(call));
      return { status: 200, body: codec, headers: { ETag: etag(codec) } };
    },

    async replaceCodec(call) {
      const store = new CodecStore(call.db);
      const current = await store.get(tenant(call), idParam(call), { forUpdate: true });
      if (!current) throw notFound(idParam(call));
      checkIfMatch(call, current);
      const body = call.body as ReplaceBody;
      const kind = kinds.requested(body.kind ?? current.kind);
      kinds.compile(kind, body.schema);
      const problems = compatibilityProblems(current, kind, body.schema);
      if (problems.length > 0 && call.query.force !== true) throw incompatibility(problems);
      const fields = { name: body.name, kind: kind.kind, schema: body.schema ?? null };
      const codec = await store.replace(tenant(call), current, fields, problems.length > 0 ? problems : null, call.principal?.subjectId ?? null, clock.now());
      return { status: 200, body: codec, headers: { ETag: etag(codec) } };
    },

    async deleteCodec(call) {
      const store = new CodecStore(call.db);
      const current = await store.get(tenant(call), idParam(call), { forUpdate: true });
      if (!current) throw notFound(idParam(call));
      checkIfMatch(call, current);
      await store.remove(tenant(call), current.id);
      return { status: 204 };
    },

    async listCodecRevisions(call) {
      const store = new CodecStore(call.db);
      if (!(await store.get(tenant(call), idParam(call)))) throw notFound(idParam(call));
      const page = pageOf(call);
      const after = page.after ? Number(page.after[0]) : undefined;
      return { status: 200, body: { items: await store.revisions(tenant(call), idParam(call), { fetch: page.fetch, ...(after !== undefined ? { afterRevision: after } : {}) }) } };
    },

    async decodeWithCodec(call) {
      const { codec, kind, compiled } = await compiledFor(call);
      const bytes = Buffer.isBuffer(call.body) ? call.body : Buffer.alloc(0);
      const writer = typeof call.query.revision === 'number' && call.query.revision !== codec.revision ? call.query.revision : undefined;
      let reader = compiled;
      if (writer !== undefined) {
        // Bytes written under an older revision: read with that revision's schema, resolved to the current one where the kind can.
        const old = await new CodecStore(call.db).revision(tenant(call), codec.id, writer);
        if (!old) throw new ApiError('not_found', `Codec "${codec.id}" has no revision ${writer}.`);
        if (old.kind !== codec.kind) throw new ApiError('validation_error', `Revision ${writer} of codec "${codec.id}" is of kind ${old.kind}, not ${codec.kind}.`, { details: [{ in: 'query', pointer: '/revision', message: `names a revision of another kind (${old.kind})` }] });
        reader = kinds.compileReader(kind, old.schema, codec.schema);
      }
      try {
        return { status: 200, body: { value: reader.decode(bytes) } };
      } catch (error) {
        throw decodeRefusal(error);
      }
    },

    async encodeWithCodec(call) {
      const { compiled } = await compiledFor(call);
      let bytes: Uint8Array;
      try {
        bytes = compiled.encode((call.body as { value: unknown }).value);
      } catch (error) {
        throw encodeRefusal(error, '/value');
      }
      return { status: 200, body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    },
  };
}
