/**
 * The one list of the fields the kernel adds to routes' schemas (manifest/compile.ts adds them),
 * so every place that must tell them apart from a route's own fields reads the same names: the
 * cursor scope (they never change which rows a list holds) and the idempotency fingerprint
 * (they are not part of "the same payload").
 */
export const KERNEL_FIELDS = {
  /** Query (reads, binary writes) or body (JSON writes) of tenant routes. */
  tenant: 'tenant_id',
  /** Query of list routes. */
  limit: 'limit',
  cursor: 'cursor',
  /** Query of mutating routes. */
  dryRun: 'dry_run',
} as const;

/** Query fields of the kernel's that never change which rows a list holds. */
export const NON_FILTER_FIELDS: ReadonlySet<string> = new Set(Object.values(KERNEL_FIELDS));
