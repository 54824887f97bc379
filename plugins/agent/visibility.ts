import type { Principal } from '../../kernel/types.js';
import type { Tool } from './tools.js';

/**
 * Whether `principal` is offered `tool` — the one rule for MCP's tools/list and the in-product
 * agent: its permissions allow the tool, and read-only callers (or a read-only deployment) see
 * reads only. A write is listed only when a declared permission grants it: session plumbing
 * (login, refresh, logout) needs none, and an agent already acting with a credential has no use
 * for it, so it would only widen what a narrow token appears able to do.
 */
export function offeredTo(tool: Tool, principal: Principal, readOnly: boolean): boolean {
  const { permission, read_only: toolReadOnly } = tool.route.decl;
  if ((readOnly || principal.readOnly) && !toolReadOnly) return false;
  if (permission === 'public' || permission === 'authenticated') return toolReadOnly;
  return principal.permissions.has(permission);
}
