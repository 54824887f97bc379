/**
 * The kernel's contracts. A request is a transport-neutral `Call` that flows through the
 * steps composed for its route; HTTP (Koa) and MCP are only two ways of making a Call, so
 * both reach the very same pipeline.
 *
 * They live in kernel/types/ by concept; this file gathers them so that every import of
 * `kernel/types.js` (the kernel's and the plugins', which may import only this, the plugin API
 * and the errors) stays as it is.
 */
export type * from './types/authentication.js';
export type * from './types/call.js';
export type * from './types/plugin.js';
export type * from './types/records.js';
export type * from './types/reply.js';
export type * from './types/services.js';
