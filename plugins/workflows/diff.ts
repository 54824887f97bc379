/** One difference between two revisions, at a JSON Pointer into the definition. */
export interface Change {
  path: string;
  op: 'added' | 'removed' | 'changed';
  from?: unknown;
  to?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The changes that turn `from` into `to`, walking objects by key and arrays by index. */
export function diffValues(from: unknown, to: unknown, path = ''): Change[] {
  if (isObject(from) && isObject(to)) {
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
    return keys.flatMap((k) => {
      const p = `${path}/${escape(k)}`;
      if (!(k in to)) return [{ path: p, op: 'removed' as const, from: from[k] }];
      if (!(k in from)) return [{ path: p, op: 'added' as const, to: to[k] }];
      return diffValues(from[k], to[k], p);
    });
  }
  if (Array.isArray(from) && Array.isArray(to)) {
    const out: Change[] = [];
    for (let i = 0; i < Math.max(from.length, to.length); i++) {
      if (i >= to.length) out.push({ path: `${path}/${i}`, op: 'removed', from: from[i] });
      else if (i >= from.length) out.push({ path: `${path}/${i}`, op: 'added', to: to[i] });
      else out.push(...diffValues(from[i], to[i], `${path}/${i}`));
    }
    return out;
  }
  return JSON.stringify(from) === JSON.stringify(to) ? [] : [{ path: path || '/', op: 'changed', from, to }];
}

/** One line per change, for people: `~ /steps/0/config/source: "a" → "b"`. */
export function describe(changes: readonly Change[]): string[] {
  const show = (v: unknown): string => {
    const text = JSON.stringify(v);
    return text.length > 200 ? `${text.slice(0, 197)}...` : text;
  };
  return changes.map((c) =>
    c.op === 'added'
      ? `+ ${c.path}: ${show(c.to)}`
      : c.op === 'removed'
        ? `- ${c.path}: ${show(c.from)}`
        : `~ ${c.path}: ${show(c.from)} → ${show(c.to)}`,
  );
}
