/** A timestamp shown in the reader's locale, with the exact ISO value for copying and screen readers. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">—</span>;
  const date = new Date(value);
  return (
    <time dateTime={value} title={value}>
      {date.toLocaleString()}
    </time>
  );
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A state word as a badge (running, failed, draft…), colour plus text so colour is never the only cue. */
export function StateBadge({ state }: { state: string }) {
  return <span className={`badge badge-${state.replace(/[^a-z_]/gi, '')}`}>{state}</span>;
}
