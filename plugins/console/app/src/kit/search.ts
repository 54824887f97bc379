/**
 * Typed search-param readers for routes' `validateSearch`: filters live in the URL, so a link
 * reproduces the view. Each returns undefined for an absent or malformed value.
 */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

export function int(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

export function oneOf<T extends string>(options: readonly T[], value: unknown): T | undefined {
  return typeof value === 'string' && (options as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** Drops undefined members so the URL carries only the filters that are set. */
export function compact<T extends Record<string, unknown>>(search: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined && v !== '')) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
