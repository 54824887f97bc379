/**
 * Random Avro schemas and values in the JSON form the codec routes take (plugins/codecs/kinds/
 * avro.ts): longs as numbers (decimal strings beyond 2^53), bytes and fixed as base64, floats
 * with "NaN"/"Infinity"/"-Infinity"/"-0", a union with one non-null branch as its value or null,
 * other unions as `{"<branch>": value}`. Seeded, so a failure replays.
 */

export type Random = () => number;

/** mulberry32: a small seeded generator, enough for test data. */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const int = (random: Random, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));

/** A schema node with what the value generator needs to know about it. */
export type Node =
  | { kind: 'null' | 'boolean' | 'int' | 'long' | 'float' | 'double' | 'bytes' | 'string'; schema: unknown }
  | { kind: 'enum'; schema: unknown; symbols: string[] }
  | { kind: 'fixed'; schema: unknown; size: number }
  | { kind: 'array'; schema: unknown; items: Node }
  | { kind: 'map'; schema: unknown; values: Node }
  | { kind: 'record'; schema: unknown; fields: Array<{ name: string; type: Node }> }
  | { kind: 'union'; schema: unknown; branches: Array<{ name: string; type: Node }> };

/** The logical types of the Avro spec, on the primitive or fixed they annotate. */
const LOGICAL: Array<{ kind: 'int' | 'long' | 'bytes' | 'string'; schema: Record<string, unknown> }> = [
  { kind: 'int', schema: { type: 'int', logicalType: 'date' } },
  { kind: 'int', schema: { type: 'int', logicalType: 'time-millis' } },
  { kind: 'long', schema: { type: 'long', logicalType: 'time-micros' } },
  { kind: 'long', schema: { type: 'long', logicalType: 'timestamp-millis' } },
  { kind: 'long', schema: { type: 'long', logicalType: 'timestamp-micros' } },
  { kind: 'long', schema: { type: 'long', logicalType: 'local-timestamp-millis' } },
  { kind: 'long', schema: { type: 'long', logicalType: 'local-timestamp-micros' } },
  { kind: 'bytes', schema: { type: 'bytes', logicalType: 'decimal', precision: 12, scale: 2 } },
  { kind: 'string', schema: { type: 'string', logicalType: 'uuid' } },
];

const PRIMITIVES = ['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'] as const;

export class SchemaGenerator {
  private names = 0;
  /** Named types defined so far, which later nodes may reference by name. */
  readonly named: Array<{ fullName: string; node: Node }> = [];

  constructor(
    private readonly random: Random,
    private readonly namespace: string,
  ) {}

  private name(prefix: string): string {
    this.names += 1;
    return `${prefix}${this.names}`;
  }

  node(depth: number, noUnion = false): Node {
    const r = this.random();
    if (depth <= 0 || r < 0.3) return this.leaf();
    if (r < 0.38 && this.named.length > 0) {
      const target = pick(this.random, this.named);
      // A reference by full name: the named type written once, used again.
      return { ...target.node, schema: target.fullName };
    }
    if (r < 0.5) {
      const items = this.node(depth - 1);
      return { kind: 'array', schema: { type: 'array', items: items.schema }, items };
    }
    if (r < 0.6) {
      const values = this.node(depth - 1);
      return { kind: 'map', schema: { type: 'map', values: values.schema }, values };
    }
    if (r < 0.8 || noUnion) return this.record(depth);
    return this.union(depth);
  }

  private leaf(): Node {
    const r = this.random();
    if (r < 0.45) {
      const kind = pick(this.random, PRIMITIVES);
      return { kind, schema: kind };
    }
    if (r < 0.7) {
      const logical = pick(this.random, LOGICAL);
      return { kind: logical.kind, schema: logical.schema };
    }
    if (r < 0.85) {
      const name = this.name('Symbol');
      const symbols = Array.from({ length: int(this.random, 1, 5) }, (_, i) => `S${i}_${name}`);
      const node: Node = { kind: 'enum', schema: { type: 'enum', name, symbols }, symbols };
      this.named.push({ fullName: `${this.namespace}.${name}`, node });
      return node;
    }
    const name = this.name('Fixed');
    const size = int(this.random, 1, 16);
    const decimal = this.random() < 0.4 ? { logicalType: 'decimal', precision: 6, scale: 3 } : {};
    const node: Node = { kind: 'fixed', schema: { type: 'fixed', name, size, ...decimal }, size };
    this.named.push({ fullName: `${this.namespace}.${name}`, node });
    return node;
  }

  record(depth: number): Node {
    const name = this.name('Record');
    const fields = Array.from({ length: int(this.random, 1, 5) }, (_, i) => ({
      name: `f${i}`,
      type: this.node(depth - 1),
    }));
    const node: Node = {
      kind: 'record',
      schema: { type: 'record', name, fields: fields.map((f) => ({ name: f.name, type: f.type.schema })) },
      fields,
    };
    // Named once it is complete: a reference inside itself would need an optional branch to end.
    this.named.push({ fullName: `${this.namespace}.${name}`, node });
    return node;
  }

  private union(depth: number): Node {
    // Branches of distinct types (the Avro rule): at most one of each unnamed kind.
    const branches: Array<{ name: string; type: Node }> = [];
    const used = new Set<string>();
    const wanted = int(this.random, 1, 4);
    if (this.random() < 0.6) {
      branches.push({ name: 'null', type: { kind: 'null', schema: 'null' } });
      used.add('null');
    }
    for (let tries = 0; branches.length < wanted + (used.has('null') ? 1 : 0) && tries < 20; tries++) {
      const defined = this.named.length;
      const type = this.node(depth - 1, true);
      const name = branchName(type, this.namespace);
      if (used.has(name)) {
        // Left out of the schema: the names it defined must not be referenced later.
        this.named.length = defined;
        continue;
      }
      used.add(name);
      branches.push({ name, type });
    }
    if (branches.length === 0 || (branches.length === 1 && used.has('null')))
      branches.push({ name: 'string', type: { kind: 'string', schema: 'string' } });
    return { kind: 'union', schema: branches.map((b) => b.type.schema), branches };
  }
}

/** The key of a branch in a wrapped union: a named type's full name, else its type. */
function branchName(node: Node, namespace: string): string {
  const schema = node.schema as { name?: string; type?: string } | string;
  if (typeof schema === 'string') return schema.includes('.') ? schema : schema;
  if (schema.name) return `${namespace}.${schema.name}`;
  return node.kind;
}

/** A top-level schema: a record in a namespace, so every name is qualified the same way. */
export function randomSchema(random: Random, index: number): { schema: unknown; node: Node; hasFloat: boolean } {
  const namespace = `gen${index}`;
  const generator = new SchemaGenerator(random, namespace);
  const node = generator.record(int(random, 1, 4));
  const schema = { ...(node.schema as object), namespace };
  return { schema, node: { ...node, schema }, hasFloat: JSON.stringify(schema).includes('"float"') };
}

const FLOATS = [0, -0, 1.5, -2.25, 3.4e38, 1e-30, Number.NaN, Infinity, -Infinity];

function base64(random: Random, size: number): string {
  return Buffer.from(Array.from({ length: size }, () => int(random, 0, 255))).toString('base64');
}

function jsonFloat(value: number): number | string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (Object.is(value, -0)) return '-0';
  return value;
}

/** A value for `node` in the routes' JSON form. */
export function randomValue(random: Random, node: Node, depth = 0): unknown {
  switch (node.kind) {
    case 'null':
      return null;
    case 'boolean':
      return random() < 0.5;
    case 'int':
      return pick(random, [0, 1, -1, 2 ** 31 - 1, -(2 ** 31), int(random, -100000, 100000)]);
    case 'long': {
      const r = random();
      if (r < 0.2) return '9223372036854775807';
      if (r < 0.3) return '-9223372036854775808';
      if (r < 0.4) return Number.MAX_SAFE_INTEGER;
      return int(random, -1e12, 1e12);
    }
    case 'float':
      return jsonFloat(random() < 0.5 ? pick(random, FLOATS) : Math.fround(random() * 1000 - 500));
    case 'double':
      return jsonFloat(random() < 0.5 ? pick(random, FLOATS) : random() * 1e6 - 5e5);
    case 'bytes':
      return base64(random, int(random, 0, 12));
    case 'string':
      return pick(random, ['', 'plain', 'ünïcødé ✓', '𝄞 clef', '__proto__', 'a"quote\\back']);
    case 'enum':
      return pick(random, node.symbols);
    case 'fixed':
      return base64(random, node.size);
    case 'array':
      return depth > 6
        ? []
        : Array.from({ length: int(random, 0, 3) }, () => randomValue(random, node.items, depth + 1));
    case 'map': {
      const out: Record<string, unknown> = {};
      if (depth > 6) return out;
      for (const key of ['k', '__proto__', 'ü', 'constructor'].slice(0, int(random, 0, 4)))
        Object.defineProperty(out, key, {
          value: randomValue(random, node.values, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out;
    }
    case 'record': {
      const out: Record<string, unknown> = {};
      for (const field of node.fields) out[field.name] = randomValue(random, field.type, depth + 1);
      return out;
    }
    case 'union': {
      const branch = pick(random, node.branches);
      if (branch.type.kind === 'null') return null;
      const value = randomValue(random, branch.type, depth + 1);
      const nonNull = node.branches.filter((b) => b.type.kind !== 'null');
      return nonNull.length === 1 ? value : { [branch.name]: value };
    }
  }
}
