/**
 * Whether a regular expression has a quantified group that itself contains a quantifier, as in
 * `(a+)+` or `(\w*,?)*`: the shape that makes a backtracking engine take exponential time on a
 * near-miss. Tenants write the JSON Schemas that validate every message, so a pattern like this
 * could stall the whole server; it is refused when the schema is compiled. (A heuristic: it
 * catches nested quantifiers, the common cause, not every slow pattern, such as `(a|a)*`.)
 */
export function hasNestedQuantifier(source: string): boolean {
  // For each open group: whether a quantifier occurs inside it.
  const groups: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string;
    if (char === '\\') {
      i += 1;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') {
      inClass = true;
      continue;
    }
    if (char === '(') {
      groups.push(false);
      continue;
    }
    if (char === ')') {
      const quantifiedInside = groups.pop() ?? false;
      const quantified = isRepeatingQuantifierAt(source, i + 1);
      if (quantified && quantifiedInside) return true;
      if (quantifiedInside || quantified) markEnclosing(groups);
      continue;
    }
    if (isRepeatingQuantifierAt(source, i)) markEnclosing(groups);
  }
  return false;
}

function markEnclosing(groups: boolean[]): void {
  if (groups.length > 0) groups[groups.length - 1] = true;
}

/** `*`, `+`, `{n,}` or `{n,m}` with m > n at `index`: a quantifier that can match a varying number of times. */
function isRepeatingQuantifierAt(source: string, index: number): boolean {
  const char = source[index];
  if (char === '*' || char === '+') return true;
  if (char !== '{') return false;
  const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index, index + 24));
  if (!match || match[2] === undefined) return false;
  return match[3] === '' || Number(match[3]) > Number(match[1]);
}
