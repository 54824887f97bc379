/** The JSON pointer of `key` inside the value at `pointer` (RFC 6901 escaping). */
export function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** A pointer as messages show it: the root is `/`. */
export function showPointer(pointer: string): string {
  return pointer === '' ? '/' : pointer;
}

/** Sets `key` on a plain object even when it is `__proto__` (which `=` would treat as the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** The JSON pointer of a path of keys and indexes. */
export function pointerOf(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((pointer, segment) => childPointer(pointer, segment), '');
}
