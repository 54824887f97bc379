import { ApiError } from '../errors.js';
import type { Call, PageRequest } from '../types.js';

/**
 * The keyset position the paging step gave a list handler. Size defaults live in the route's
 * manifest, so a handler never restates them; asking on a route without paging is a bug.
 */
export function pageOf(call: Call): PageRequest {
  if (!call.page)
    throw new ApiError('internal_error', `${call.route.decl.operation} reads a page but declares no paging policy.`);
  return call.page;
}

/** The first paging-key value of the last row served, as text (single-column `id` keys). */
export function afterKey(page: PageRequest): string | undefined {
  return page.after ? String(page.after[0]) : undefined;
}
