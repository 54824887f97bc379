import type avsc from 'avsc';
import type { Type } from 'avsc';

// Asked once per value decoded: remembered per union type.
const singleBranches = new WeakMap<Type, Type | undefined>();

/**
 * How unions look as JSON. A union with a single non-null branch (an optional value, the
 * common `["null", "string"]`) is the value itself or null. Any other union uses Avro's JSON
 * encoding: null, or an object with one key naming the branch, `{"int": 5}`,
 * `{"shop.Refund": {...}}` — a bare JSON string could be a string, an enum, bytes or a long,
 * so only the wrapper says which.
 */
export function nullableBranch(union: Type): Type | undefined {
  if (!singleBranches.has(union)) {
    const nonNull = (union as avsc.types.WrappedUnionType).types.filter((branch) => branch.typeName !== 'null');
    singleBranches.set(union, nonNull.length === 1 ? nonNull[0] : undefined);
  }
  return singleBranches.get(union);
}

/** The key naming `branch` in a wrapped union: its full name, or the type name. */
export function branchName(branch: Type): string {
  return branch.branchName ?? branch.typeName;
}
