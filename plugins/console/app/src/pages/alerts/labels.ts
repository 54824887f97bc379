/** An alert's or a selector's labels as one line: `k=v, k=v`. */
export function labelsText(labels: Record<string, unknown>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
}
