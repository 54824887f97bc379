import type avsc from 'avsc';
import type { Type } from 'avsc';
import { compileAvroType, describeAvro, isLong } from '../kinds/avro/compile.js';
import type { CompatibilityProblem } from '../kinds/types.js';

/** Writer type → the reader types it may be read as besides itself (Avro specification, "Schema Resolution"). */
const PROMOTIONS: Record<string, string[]> = {
  int: ['long', 'float', 'double'],
  long: ['float', 'double'],
  float: ['double'],
  string: ['bytes'],
  bytes: ['string'],
};

/**
 * Backward compatibility as Confluent's schema registry defines it: a reader using `next`
 * can read every datum written with `previous`, by Avro schema resolution. What breaks it:
 * - a field in `next` that `previous` lacks and that has no default (old data has no value);
 * - a field whose type changed in a way that does not promote (int → long, float, double;
 *   long → float, double; float → double; string ↔ bytes promote);
 * - an enum symbol of `previous` missing from `next`, unless `next`'s enum has a default;
 * - a union branch of `previous` that `next` cannot read; a fixed whose size changed;
 * - a record, enum or fixed renamed without the old name in its aliases.
 * Removing a field is backward compatible: the reader skips it (with or without a default).
 * It breaks *forward* compatibility (a reader still on `previous` cannot fill the field from
 * new data when it has no default); forward is this same check with the arguments swapped,
 * `avroCompatibility(next, previous)`, and "full" is both. avsc's own resolver runs last as a
 * backstop, so nothing avsc cannot resolve passes.
 */
export function avroCompatibility(previous: unknown, next: unknown): CompatibilityProblem[] {
  const writer = compileAvroType(previous);
  const reader = compileAvroType(next);
  const problems: CompatibilityProblem[] = [];
  compare(writer, reader, rootPath(reader), problems, new Map());
  if (problems.length === 0) {
    try {
      reader.createResolver(writer);
    } catch (error) {
      problems.push({
        path: rootPath(reader),
        problem: `avsc cannot read old data with the new schema: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  return problems;
}

function rootPath(type: Type): string {
  return (type as { name?: string }).name ?? describeAvro(type);
}

function isUnion(type: Type): type is avsc.types.WrappedUnionType {
  return type.typeName.startsWith('union');
}

function kindOf(type: Type): string {
  return isLong(type) ? 'long' : type.typeName === 'error' ? 'record' : type.typeName;
}

/** Whether `reader` is the same named type as `writer`: the full name, or one of the reader's aliases. */
function sameName(writer: Type, reader: Type): boolean {
  const name = (writer as { name?: string }).name;
  return name === (reader as { name?: string }).name || (reader.aliases ?? []).includes(name ?? '');
}

/** Whether data of `writer` can be read as `reader` at all (not looking inside). */
function matches(writer: Type, reader: Type): boolean {
  const w = kindOf(writer);
  const r = kindOf(reader);
  if (w === r) return ['record', 'enum', 'fixed'].includes(w) ? sameName(writer, reader) : true;
  return (PROMOTIONS[w] ?? []).includes(r);
}

function compare(
  writer: Type,
  reader: Type,
  path: string,
  problems: CompatibilityProblem[],
  seen: Map<Type, Set<Type>>,
): void {
  // Recursive schemas (a linked list) meet the same pair again: once is enough.
  const pairs = seen.get(writer) ?? new Set<Type>();
  if (pairs.has(reader)) return;
  pairs.add(reader);
  seen.set(writer, pairs);

  if (isUnion(writer)) {
    for (const branch of writer.types) {
      if (!isUnion(reader)) {
        compare(branch, reader, path, problems, seen);
        continue;
      }
      const target = pickBranch(branch, reader);
      if (target) compare(branch, target, path, problems, seen);
      else
        problems.push({
          path,
          problem: `the union no longer has a branch that reads ${describeAvro(branch)} (it was ${describeAvro(writer)}, now ${describeAvro(reader)})`,
        });
    }
    return;
  }
  if (isUnion(reader)) {
    const target = pickBranch(writer, reader);
    if (target) compare(writer, target, path, problems, seen);
    else
      problems.push({
        path,
        problem: `type changed from ${describeAvro(writer)} to ${describeAvro(reader)}, which has no branch that reads it`,
      });
    return;
  }
  if (!matches(writer, reader)) {
    problems.push({ path, problem: describeMismatch(writer, reader) });
    return;
  }
  switch (kindOf(reader)) {
    case 'record':
      compareRecords(writer as avsc.types.RecordType, reader as avsc.types.RecordType, path, problems, seen);
      return;
    case 'enum':
      compareEnums(writer as avsc.types.EnumType, reader as avsc.types.EnumType, path, problems);
      return;
    case 'fixed': {
      const before = (writer as avsc.types.FixedType).size;
      const after = (reader as avsc.types.FixedType).size;
      if (before !== after) problems.push({ path, problem: `fixed size changed from ${before} to ${after}` });
      return;
    }
    case 'array':
      compare(
        (writer as avsc.types.ArrayType).itemsType,
        (reader as avsc.types.ArrayType).itemsType,
        `${path}[]`,
        problems,
        seen,
      );
      return;
    case 'map':
      compare(
        (writer as avsc.types.MapType).valuesType as Type,
        (reader as avsc.types.MapType).valuesType as Type,
        `${path}{}`,
        problems,
        seen,
      );
      return;
    default:
      return;
  }
}

/** The reader branch the specification picks for writer data: the first exact match, else the first that promotes. */
function pickBranch(writer: Type, reader: avsc.types.WrappedUnionType): Type | undefined {
  return (
    reader.types.find((branch) => kindOf(branch) === kindOf(writer) && matches(writer, branch)) ??
    reader.types.find((branch) => matches(writer, branch))
  );
}

function describeMismatch(writer: Type, reader: Type): string {
  if (kindOf(writer) === kindOf(reader)) {
    const before = (writer as { name?: string }).name ?? '';
    return `${kindOf(reader)} renamed from ${before} to ${(reader as { name?: string }).name ?? ''} (list "${before}" in its aliases to keep reading old data)`;
  }
  return `type changed from ${describeAvro(writer)} to ${describeAvro(reader)}, which does not promote`;
}

function compareRecords(
  writer: avsc.types.RecordType,
  reader: avsc.types.RecordType,
  path: string,
  problems: CompatibilityProblem[],
  seen: Map<Type, Set<Type>>,
): void {
  for (const field of reader.fields) {
    const old = writer.fields.find(
      (candidate) => candidate.name === field.name || field.aliases.includes(candidate.name),
    );
    const fieldPath = `${path}.${field.name}`;
    if (old) compare(old.type, field.type, fieldPath, problems, seen);
    else if (field.defaultValue() === undefined)
      problems.push({
        path: fieldPath,
        problem: 'field added without a default: data written before has no value for it',
      });
  }
}

function compareEnums(
  writer: avsc.types.EnumType,
  reader: avsc.types.EnumType,
  path: string,
  problems: CompatibilityProblem[],
): void {
  if ((reader as { default?: string }).default !== undefined) return;
  for (const symbol of writer.symbols) {
    if (!reader.symbols.includes(symbol))
      problems.push({ path, problem: `enum symbol ${symbol} removed (and the enum has no default to read it as)` });
  }
}
