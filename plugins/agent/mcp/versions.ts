import { ApiError } from '../../../kernel/errors.js';

/** MCP protocol revisions this server speaks, newest first. Nothing here differs between them
 *  for a tools-only, stateless server except batching (2025-03-26 only), which is accepted. */
export const SUPPORTED_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** The version to answer `initialize` with: the client's when supported, else our newest. */
export function negotiate(requested: string): string {
  return (SUPPORTED_VERSIONS as readonly string[]).includes(requested) ? requested : SUPPORTED_VERSIONS[0];
}

/** The `MCP-Protocol-Version` header of later requests must name a supported revision (else 400). */
export function checkVersionHeader(value: string | undefined): void {
  if (value === undefined || (SUPPORTED_VERSIONS as readonly string[]).includes(value)) return;
  throw new ApiError(
    'bad_request',
    `Unsupported MCP-Protocol-Version ${value.slice(0, 40)}; supported: ${SUPPORTED_VERSIONS.join(', ')}.`,
  );
}
