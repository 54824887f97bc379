import { ApiError } from '../../kernel/errors.js';
import {
  afterKey,
  canonicalJson,
  ifMatch,
  operationHandlers,
  pageOf,
  slugify,
  type InUse,
  type TenantCall,
} from '../../kernel/plugin/api.js';
import type { Call, Clock, Handler } from '../../kernel/types.js';
import type { CodecKind, CompatibilityProblem } from './contract.js';
import type { KindRegistry } from './kind-registry.js';
import { decodeRefusal, encodeRefusal, incompatibility, schemaRefusal } from './refusals.js';
import type { Operations } from './generated/manifest-types.js';
import { withSharedTypes } from './shared-types.js';
import { CodecStore, type Codec } from './store.js';

/** A call on one codec: tenant-scoped, the codec's id in the path. */
type CodecCall = TenantCall & { params: { id: string } };

function notFound(id: string): ApiError {
  return new ApiError('not_found', `No codec "${id}".`);
}

/** If-Match against the codec's revision (its ETag, which the kernel sends: manifests/codecs.json). */
function checkIfMatch(call: Call, codec: Codec): void {
  ifMatch(call, codec.revision, `Codec "${codec.id}"`);
}

/** What a change from `current` to (`kind`, `schema`) breaks for data already written. */
function compatibilityProblems(current: Codec, kind: CodecKind, schema: unknown): CompatibilityProblem[] {
  if (kind.kind !== current.kind) {
    return [
      {
        path: '/kind',
        problem: `the kind changed from ${current.kind} to ${kind.kind}: data written as ${current.kind} does not read as ${kind.kind}`,
      },
    ];
  }
  if (!kind.compatibility || canonicalJson(current.schema ?? null) === canonicalJson(schema ?? null)) return [];
  try {
    return kind.compatibility(current.schema ?? undefined, schema ?? undefined);
  } catch (error) {
    throw schemaRefusal(error);
  }
}

export function codecHandlers(kinds: KindRegistry, clock: Clock, inUse?: InUse): Record<string, Handler> {
  /** The codec named by the path, compiled for decoding and encoding. */
  async function compiledFor(call: CodecCall) {
    const codec = await new CodecStore(call.db).get(call.tenantId, call.params.id);
    if (!codec) throw notFound(call.params.id);
    const kind = kinds.stored(codec.kind, codec.id);
    return { codec, kind, compiled: kinds.compile(kind, codec.schema) };
  }

  return operationHandlers<Operations>({
    listCodecKinds(call) {
      const page = pageOf(call);
      const after = afterKey(page);
      const items = kinds
        .entries()
        .map(({ plugin, kind }) => ({
          kind: kind.kind,
          plugin,
          schema_schema: kind.schemaSchema,
          schema_evolution: kind.compatibility !== undefined,
        }))
        .filter((k) => after === undefined || k.kind > after);
      return { status: 200, body: { items: items.slice(0, page.fetch) } };
    },

    async listCodecs(call) {
      const page = pageOf(call);
      const after = afterKey(page);
      const filter = {
        fetch: page.fetch,
        ...(after !== undefined ? { afterId: after } : {}),
        ...(typeof call.query.kind === 'string' ? { kind: call.query.kind } : {}),
      };
      return { status: 200, body: { items: await new CodecStore(call.db).list(call.tenantId, filter) } };
    },

    async createCodec(call) {
      const body = call.body;
      const id = body.id ?? slugify(body.name);
      if (!id)
        throw new ApiError('validation_error', 'The name yields an empty id; send an id.', {
          details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }],
        });
      const kind = kinds.requested(body.kind);
      const schema = await withSharedTypes(call.db, call.tenantId, id, kind.kind, body.schema);
      kinds.compile(kind, schema);
      call.resourceId = id;
      const codec = await new CodecStore(call.db).insert(
        call.tenantId,
        id,
        { name: body.name, kind: kind.kind, schema: schema ?? null },
        call.principal?.subjectId ?? null,
        clock.now(),
      );
      return { status: 201, body: codec, headers: { Location: `/codecs/${id}` } };
    },

    async getCodec(call) {
      const codec = await new CodecStore(call.db).get(call.tenantId, call.params.id);
      if (!codec) throw notFound(call.params.id);
      return { status: 200, body: codec };
    },

    async replaceCodec(call) {
      const store = new CodecStore(call.db);
      const current = await store.get(call.tenantId, call.params.id, { forUpdate: true });
      if (!current) throw notFound(call.params.id);
      checkIfMatch(call, current);
      const body = call.body;
      const kind = kinds.requested(body.kind ?? current.kind);
      const schema = await withSharedTypes(call.db, call.tenantId, current.id, kind.kind, body.schema);
      kinds.compile(kind, schema);
      const problems = compatibilityProblems(current, kind, schema);
      if (problems.length > 0 && call.query.force !== true) throw incompatibility(problems);
      const fields = { name: body.name, kind: kind.kind, schema: schema ?? null };
      const codec = await store.replace(
        call.tenantId,
        current,
        fields,
        problems.length > 0 ? problems : null,
        call.principal?.subjectId ?? null,
        clock.now(),
      );
      return { status: 200, body: codec };
    },

    async deleteCodec(call) {
      const store = new CodecStore(call.db);
      const current = await store.get(call.tenantId, call.params.id, { forUpdate: true });
      if (!current) throw notFound(call.params.id);
      checkIfMatch(call, current);
      await inUse?.(call.db, call.tenantId, 'codec', current.id);
      await store.remove(call.tenantId, current.id);
      return { status: 204 };
    },

    async listCodecRevisions(call) {
      const store = new CodecStore(call.db);
      if (!(await store.get(call.tenantId, call.params.id))) throw notFound(call.params.id);
      const page = pageOf(call);
      const after = page.after ? Number(page.after[0]) : undefined;
      return {
        status: 200,
        body: {
          items: await store.revisions(call.tenantId, call.params.id, {
            fetch: page.fetch,
            ...(after !== undefined ? { afterRevision: after } : {}),
          }),
        },
      };
    },

    async decodeWithCodec(call) {
      const { codec, kind, compiled } = await compiledFor(call);
      const bytes = Buffer.isBuffer(call.body) ? call.body : Buffer.alloc(0);
      const writer =
        typeof call.query.revision === 'number' && call.query.revision !== codec.revision
          ? call.query.revision
          : undefined;
      let reader = compiled;
      if (writer !== undefined) {
        // Bytes written under an older revision: read with that revision's schema, resolved to the current one where the kind can.
        const old = await new CodecStore(call.db).revision(call.tenantId, codec.id, writer);
        if (!old) throw new ApiError('not_found', `Codec "${codec.id}" has no revision ${writer}.`);
        if (old.kind !== codec.kind)
          throw new ApiError(
            'validation_error',
            `Revision ${writer} of codec "${codec.id}" is of kind ${old.kind}, not ${codec.kind}.`,
            {
              details: [
                { in: 'query', pointer: '/revision', message: `names a revision of another kind (${old.kind})` },
              ],
            },
          );
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
        bytes = compiled.encode(call.body.value);
      } catch (error) {
        throw encodeRefusal(error, '/value');
      }
      return { status: 200, body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    },
  });
}
