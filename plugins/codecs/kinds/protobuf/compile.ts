import protobuf from 'protobufjs';
import { CodecSchemaError } from '../errors.js';
import { checkSchemaShape } from '../shared/schema-shape.js';

export const protobufSchemaSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['proto', 'message'],
  properties: {
    proto: { type: 'string', minLength: 1, maxLength: 1048576 },
    message: { type: 'string', pattern: '^\\.?[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$', maxLength: 1024 },
  },
};

/** A parsed .proto and the message type the codec reads and writes. */
export interface CompiledProto {
  readonly root: protobuf.Root;
  readonly type: protobuf.Type;
}

/** Field numbers protobuf allows, less the range it reserves for itself. */
const MAX_FIELD_NUMBER = 536870911;
const RESERVED_FIRST = 19000;
const RESERVED_LAST = 19999;

/**
 * Parses the tenant's .proto text with protobufjs `parse` — never from the file system — and
 * finds the codec's message type. Imports resolve only to the well-known types protobufjs
 * bundles (`google/protobuf/timestamp.proto`, …); any other import is refused. Field names
 * are kept as written (`order_id`, not `orderId`). Errors name the line when it is known.
 */
export function compileProto(schema: unknown): CompiledProto {
  if (schema === undefined || schema === null)
    throw new CodecSchemaError('protobuf codecs need a schema {proto, message}');
  checkSchemaShape('protobuf', protobufSchemaSchema, schema);
  const { proto, message } = schema as { proto: string; message: string };
  try {
    const parsed = protobuf.parse(proto, new protobuf.Root(), { keepCase: true });
    for (const file of [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])]) {
      const bundled =
        file.startsWith('google/protobuf/') && Object.hasOwn(protobuf.common, file) ? protobuf.common.get(file) : null;
      if (!bundled?.nested) {
        fail(
          `import "${file}" is not available: only the well-known google/protobuf/*.proto files can be imported`,
          lineOf(proto, new RegExp(`import\\s+(weak\\s+|public\\s+)?["']${escapeRegExp(file)}["']`)),
        );
      }
      parsed.root.addJSON(bundled.nested);
    }
    parsed.root.resolveAll();
    checkNumbers(parsed.root, proto);
    const type = parsed.root.lookup(message.replace(/^\./, ''));
    if (!(type instanceof protobuf.Type)) {
      const known = allTypes(parsed.root)
        .filter((t) => !t.fullName.startsWith('.google.protobuf.'))
        .map((t) => t.fullName.slice(1));
      throw new CodecSchemaError(
        `protobuf schema /message: "${message}" is not a message type of the .proto (it defines: ${known.slice(0, 20).join(', ') || 'none'})`,
        { pointer: '/message' },
      );
    }
    return { root: parsed.root, type };
  } catch (error) {
    if (error instanceof CodecSchemaError) throw error;
    const text = error instanceof Error ? error.message : String(error);
    const line = lineInMessage(text) ?? guessLine(proto, text);
    fail(text.replace(/\s*\(line \d+\)$/, ''), line);
  }
}

function fail(problem: string, line: number | undefined): never {
  const where = line === undefined ? '' : ` line ${line}`;
  throw new CodecSchemaError(
    `protobuf schema /proto${where}: ${problem}`,
    line === undefined ? { pointer: '/proto' } : { pointer: '/proto', line },
  );
}

/** Every message type under `namespace`, nested ones included. */
export function allTypes(namespace: protobuf.NamespaceBase): protobuf.Type[] {
  const found: protobuf.Type[] = [];
  for (const child of namespace.nestedArray) {
    if (child instanceof protobuf.Type) found.push(child);
    if (child instanceof protobuf.Namespace || child instanceof protobuf.Type) found.push(...allTypes(child));
  }
  return found;
}

/** Every enum under `namespace`, nested ones included. */
export function allEnums(namespace: protobuf.NamespaceBase): protobuf.Enum[] {
  const found: protobuf.Enum[] = [];
  for (const child of namespace.nestedArray) {
    if (child instanceof protobuf.Enum) found.push(child);
    if (child instanceof protobuf.Namespace || child instanceof protobuf.Type) found.push(...allEnums(child));
  }
  return found;
}

/** What protoc refuses and protobufjs lets through: field numbers out of range, proto3 enums not starting at 0. */
function checkNumbers(root: protobuf.Root, proto: string): void {
  for (const type of allTypes(root)) {
    for (const field of type.fieldsArray) {
      if (field.id < 1 || field.id > MAX_FIELD_NUMBER || (field.id >= RESERVED_FIRST && field.id <= RESERVED_LAST)) {
        fail(
          `${type.fullName.slice(1)}.${field.name}: field number ${field.id} is not allowed (1–${MAX_FIELD_NUMBER}, except ${RESERVED_FIRST}–${RESERVED_LAST})`,
          lineOf(proto, new RegExp(`\\b${escapeRegExp(field.name)}\\s*=\\s*${field.id}\\b`)),
        );
      }
    }
  }
  if (!/^\s*syntax\s*=\s*["']proto3["']/m.test(proto)) return;
  for (const enumType of allEnums(root)) {
    const first = Object.values(enumType.values)[0];
    if (first !== 0 && !enumType.fullName.startsWith('.google.protobuf.')) {
      fail(
        `${enumType.fullName.slice(1)}: the first value of a proto3 enum must be 0`,
        lineOf(proto, new RegExp(`\\benum\\s+${escapeRegExp(enumType.name)}\\b`)),
      );
    }
  }
}

function lineInMessage(text: string): number | undefined {
  const match = /\(line (\d+)\)/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** The line of a problem protobufjs reports without one: the name it quotes, or the field number. */
function guessLine(proto: string, text: string): number | undefined {
  const id = /\bid (\d+)\b/.exec(text);
  if (id) return lastLineOf(proto, new RegExp(`=\\s*${id[1]}\\s*[;\\[]`));
  const quoted = /'([^']+)'/.exec(text);
  if (quoted)
    return lineOf(proto, new RegExp(`(^|[^\\w.])${escapeRegExp((quoted[1] as string).replace(/^\./, ''))}\\b`));
  return undefined;
}

function lineOf(proto: string, pattern: RegExp): number | undefined {
  const index = proto.split('\n').findIndex((line) => pattern.test(line));
  return index < 0 ? undefined : index + 1;
}

function lastLineOf(proto: string, pattern: RegExp): number | undefined {
  const lines = proto.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) if (pattern.test(lines[i] as string)) return i + 1;
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
