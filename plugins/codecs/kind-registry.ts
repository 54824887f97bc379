import { ApiError } from '../../kernel/errors.js';
import { canonicalJson, type Extensions } from '../../kernel/plugin/api.js';
import { codecKinds, type CodecKind, type CompiledCodec } from './contract.js';
import { schemaRefusal } from './refusals.js';

/** Compiled codecs kept, so a hot codec's schema is not parsed again on every call. */
const CACHE_SIZE = 256;

/**
 * The codec kinds the enabled plugins contributed (this plugin's built-ins among them), and the
 * compiled codecs of recent schemas. A compiled codec depends only on its kind and schema, so
 * that pair is the cache key: a changed, deleted or re-created codec never meets a stale entry.
 */
export class KindRegistry {
  private readonly compiled = new Map<string, CompiledCodec>();

  constructor(private readonly extensions: Extensions) {}

  /** Each kind with the plugin that contributed it, by name. */
  entries(): Array<{ plugin: string; kind: CodecKind }> {
    return this.extensions
      .entries(codecKinds)
      .map(({ plugin, value }) => ({ plugin, kind: value }))
      .sort((a, b) => (a.kind.kind < b.kind.kind ? -1 : a.kind.kind > b.kind.kind ? 1 : 0));
  }

  /** Kind names given by more than one plugin, each with its plugins: a deployment error. */
  clashes(): string[] {
    const by = new Map<string, string[]>();
    for (const { plugin, kind } of this.entries()) by.set(kind.kind, [...(by.get(kind.kind) ?? []), plugin]);
    return [...by]
      .filter(([, plugins]) => plugins.length > 1)
      .map(([kind, plugins]) => `codec kind ${kind} is contributed by plugins ${plugins.join(' and ')}`);
  }

  /** Refuses to start while two plugins give one kind name: a stored codec's meaning would depend on plugin order. */
  refuseClashes(): void {
    const clashes = this.clashes();
    if (clashes.length > 0) throw new Error(`the codecs plugin refuses to start: ${clashes.join('; ')}`);
  }

  find(name: string): CodecKind | undefined {
    return this.entries().find((e) => e.kind.kind === name)?.kind;
  }

  /** The kind a request names → 400 naming the known kinds when no enabled plugin gives it. */
  requested(name: string): CodecKind {
    const kind = this.find(name);
    if (kind) return kind;
    const known = this.entries().map((e) => e.kind.kind);
    throw new ApiError('validation_error', `Unknown codec kind "${name}"; the known kinds are ${known.join(', ')}.`, {
      details: [{ in: 'body', pointer: '/kind', message: `must be one of ${known.join(', ')}` }],
    });
  }

  /** The kind of a stored codec → 501 when the plugin that gave it is no longer enabled. */
  stored(name: string, codecId: string): CodecKind {
    const kind = this.find(name);
    if (!kind)
      throw new ApiError(
        'not_configured',
        `Codec "${codecId}" is of kind "${name}", which no enabled plugin contributes.`,
      );
    return kind;
  }

  /** Compiles a schema for `kind` (400 naming where it is wrong), or takes it from the cache. */
  compile(kind: CodecKind, schema: unknown): CompiledCodec {
    return this.cached(`${kind.kind}\u0000${canonicalJson(schema ?? null)}`, () => kind.compile(schema ?? undefined));
  }

  /** A codec that reads data written with `writerSchema` as values of `readerSchema` (kinds with schema resolution). */
  compileReader(kind: CodecKind, writerSchema: unknown, readerSchema: unknown): CompiledCodec {
    const resolve = kind.compileReader;
    if (!resolve) return this.compile(kind, writerSchema);
    return this.cached(
      `${kind.kind}\u0000${canonicalJson(writerSchema ?? null)}\u0000${canonicalJson(readerSchema ?? null)}`,
      () => resolve.call(kind, writerSchema ?? undefined, readerSchema ?? undefined),
    );
  }

  private cached(key: string, make: () => CompiledCodec): CompiledCodec {
    const hit = this.compiled.get(key);
    if (hit) {
      // Re-inserted so the map's order is least recently used first.
      this.compiled.delete(key);
      this.compiled.set(key, hit);
      return hit;
    }
    let codec: CompiledCodec;
    try {
      codec = make();
    } catch (error) {
      throw schemaRefusal(error);
    }
    this.compiled.set(key, codec);
    if (this.compiled.size > CACHE_SIZE) this.compiled.delete(this.compiled.keys().next().value as string);
    return codec;
  }
}
