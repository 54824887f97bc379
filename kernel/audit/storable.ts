/**
 * Makes any value storable in PostgreSQL text and jsonb, whatever a caller sent: an audit
 * record must be written even for the call that was refused because of what it sent. NUL and
 * lone surrogates become U+FFFD, long strings are cut, deep nesting is cut off; the caller
 * learns whether anything was changed so the record can say so.
 */
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** NUL or any surrogate: a string without one (nearly every string) needs no look around its characters. */
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
const MAX_DEPTH = 16;
const MAX_KEYS = 200;

export class Storable {
  /** True once any value passed through this instance had to be changed. */
  changed = false;

  constructor(private readonly maxChars = 2000) {}

  text(value: string, maxChars = this.maxChars): string {
    let out = value;
    if (SUSPECT.test(out) && UNSTORABLE.test(out)) {
      out = out.replaceAll('\u0000', '\ufffd').replace(LONE_SURROGATES, '\ufffd');
      this.changed = true;
    }
    if (out.length > maxChars) {
      // Never cut between the two halves of a surrogate pair.
      const end = /[\uD800-\uDBFF]/.test(out.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
      out = `${out.slice(0, end)}…`;
      this.changed = true;
    }
    return out;
  }

  optionalText(value: string | null | undefined, maxChars?: number): string | null {
    return value === null || value === undefined ? null : this.text(value, maxChars);
  }

  /** A JSON-safe copy: storable strings and keys, finite numbers, bounded depth and width. */
  value(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value === 'number') {
      if (Number.isFinite(value)) return value;
      this.changed = true;
      return null;
    }
    if (value === null || typeof value === 'boolean') return value;
    if (typeof value !== 'object') return undefined;
    if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
    if (depth >= MAX_DEPTH) {
      this.changed = true;
      return '[nested too deep]';
    }
    if (Array.isArray(value)) {
      if (value.length > MAX_KEYS) this.changed = true;
      return value.slice(0, MAX_KEYS).map((v) => this.value(v, depth + 1) ?? null);
    }
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length > MAX_KEYS) this.changed = true;
    const out: Record<string, unknown> = {};
    for (const [key, child] of entries.slice(0, MAX_KEYS)) {
      const copy = this.value(child, depth + 1);
      if (copy !== undefined) out[this.text(key, 200)] = copy;
    }
    return out;
  }
}
