import protobuf from 'protobufjs';
import { allEnums, allTypes, compileProto } from '../kinds/protobuf/compile.js';
import type { CompatibilityProblem } from '../kinds/types.js';

/**
 * Backward compatibility of a .proto change: data written with `previous` must read with
 * `next` to the same values. The codec shows values by field *name* (the proto3 JSON mapping),
 * so the rules are those of buf's WIRE_JSON category and Confluent's schema registry:
 * - a field number whose type changed (`int64` → `string`, `shop.Item` → `shop.Line`), whose
 *   name changed (the number reused for another field), or whose cardinality changed
 *   (singular ↔ repeated ↔ map);
 * - a field (or enum value) removed without `reserved` for its number. Reading old data still
 *   works — the reader skips the number — but this check compares each revision with the one
 *   before, so once the field is gone nothing would stop a later revision from reusing the
 *   number with another type, and every message written before would then decode wrongly.
 *   Reserving is the protobuf guidance (and buf's FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED), so
 *   it is an error, not a warning;
 * - a field that became `required`, or a new `required` field (proto2): old data may lack it;
 * - an existing field moved into a oneof alongside other existing fields: old data may set
 *   several of them, and a reader keeps only one;
 * - a message or enum removed (or moved to another package), or the codec's message switched
 *   to another type; an enum value renamed.
 * Adding optional fields, messages, enums and enum values is compatible.
 */
export function protobufCompatibility(previous: unknown, next: unknown): CompatibilityProblem[] {
  const before = compileProto(previous);
  const after = compileProto(next);
  const problems: CompatibilityProblem[] = [];
  if (before.type.fullName !== after.type.fullName && after.root.lookup(before.type.fullName) !== null) {
    problems.push({
      path: name(after.type),
      problem: `the codec's message changed from ${name(before.type)} to ${name(after.type)}: data written as one is read as the other`,
    });
  }
  const types = new Map(allTypes(after.root).map((type) => [type.fullName, type]));
  for (const old of allTypes(before.root)) {
    if (isWellKnown(old)) continue;
    const now = types.get(old.fullName);
    if (now) compareMessages(old, now, problems);
    else
      problems.push({
        path: name(old),
        problem: 'message removed (or renamed, or moved to another package): data that holds it can no longer be read',
      });
  }
  const enums = new Map(allEnums(after.root).map((enumType) => [enumType.fullName, enumType]));
  for (const old of allEnums(before.root)) {
    if (isWellKnown(old)) continue;
    const now = enums.get(old.fullName);
    if (now) compareEnums(old, now, problems);
    else problems.push({ path: name(old), problem: 'enum removed (or renamed, or moved to another package)' });
  }
  return problems;
}

function compareMessages(old: protobuf.Type, now: protobuf.Type, problems: CompatibilityProblem[]): void {
  for (const field of old.fieldsArray) {
    const path = `${name(old)}.${field.name} (field ${field.id})`;
    const match = now.fieldsById[field.id];
    if (!match) {
      if (!now.isReservedId(field.id))
        problems.push({
          path,
          problem: `field removed without reserving its number: add "reserved ${field.id};" so the number is never reused with another meaning`,
        });
      continue;
    }
    if (match.name !== field.name)
      problems.push({
        path,
        problem: `field number ${field.id} is now named ${match.name}: values are read by name, so its data changes meaning (reserve the old number and use a new one)`,
      });
    if (valueType(field) !== valueType(match))
      problems.push({ path, problem: `type changed from ${valueType(field)} to ${valueType(match)}` });
    if (cardinality(field) !== cardinality(match))
      problems.push({ path, problem: `changed from ${cardinality(field)} to ${cardinality(match)}` });
    if (!field.required && match.required)
      problems.push({ path, problem: 'became required: data written before may lack it' });
    const oneof = match.partOf;
    if (oneof && !field.partOf) {
      const others = oneof.fieldsArray.filter((member) => member !== match && old.fieldsById[member.id] !== undefined);
      if (others.length > 0)
        problems.push({
          path,
          problem: `moved into oneof ${oneof.name} with ${others.map((member) => member.name).join(', ')}: data written before may set several of them`,
        });
    }
  }
  for (const field of now.fieldsArray) {
    if (field.required && old.fieldsById[field.id] === undefined) {
      problems.push({
        path: `${name(now)}.${field.name} (field ${field.id})`,
        problem: 'required field added: data written before has no value for it',
      });
    }
  }
}

function compareEnums(old: protobuf.Enum, now: protobuf.Enum, problems: CompatibilityProblem[]): void {
  for (const [valueName, number] of Object.entries(old.values)) {
    const path = `${name(old)}.${valueName} (${number})`;
    const names = Object.entries(now.values)
      .filter(([, candidate]) => candidate === number)
      .map(([candidate]) => candidate);
    if (names.length === 0) {
      if (!now.isReservedId(number))
        problems.push({ path, problem: `enum value removed without reserving its number: add "reserved ${number};"` });
    } else if (!names.includes(valueName)) {
      problems.push({ path, problem: `enum value ${number} renamed to ${names.join(', ')}: values are shown by name` });
    }
  }
}

/** A field's value type: a scalar name, a message or enum full name, or `map<key, value>`. */
function valueType(field: protobuf.Field): string {
  const base = field.resolvedType ? name(field.resolvedType) : field.type;
  return field instanceof protobuf.MapField ? `map<${field.keyType}, ${base}>` : base;
}

function cardinality(field: protobuf.Field): string {
  if (field.map) return 'map';
  return field.repeated ? 'repeated' : 'singular';
}

function isWellKnown(object: protobuf.ReflectionObject): boolean {
  return object.fullName.startsWith('.google.protobuf.');
}

function name(object: protobuf.ReflectionObject): string {
  return object.fullName.replace(/^\./, '');
}
