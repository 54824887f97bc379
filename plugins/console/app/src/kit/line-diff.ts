/** One line of a line diff: kept, removed (only in the old text) or added (only in the new). */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Past this many lines on either side the diff is shown as all removed then all added (the table would be too big). */
const MAX_LINES = 2_000;

/**
 * A line diff of two texts (a script's two revisions) by longest common subsequence: the lines
 * both keep, in order, and the ones removed or added around them.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length > MAX_LINES || b.length > MAX_LINES)
    return [
      ...a.map((text) => ({ kind: 'removed' as const, text })),
      ...b.map((text) => ({ kind: 'added' as const, text })),
    ];
  // common[i][j]: the length of the longest common subsequence of a[i..] and b[j..].
  const common: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i] });
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || common[i][j + 1] >= common[i + 1][j])) {
      out.push({ kind: 'added', text: b[j] });
      j++;
    } else {
      out.push({ kind: 'removed', text: a[i] });
      i++;
    }
  }
  return out;
}
