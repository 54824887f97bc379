import { ERROR_CATALOGUE } from '../errors.js';
import type { JsonSchema, Manifest } from '../manifest/types.js';

/** The one catalogue as the enabled plugins make it: the kernel's codes and those their manifests declare. */
export function errorCatalogue(manifests: readonly Manifest[]): Array<{ code: string; status: number }> {
  const codes: Array<{ code: string; status: number }> = Object.entries(ERROR_CATALOGUE).map(([code, e]) => ({
    code,
    status: e.status,
  }));
  for (const manifest of manifests)
    for (const e of manifest.error_codes ?? []) codes.push({ code: e.code, status: e.status });
  return codes;
}

/** The spec's error body (§7), shared by every error response; `code` lists the catalogue. */
export function errorSchema(codes: readonly string[]): JsonSchema {
  return {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message', 'status'],
        properties: {
          code: { type: 'string', enum: [...codes], description: 'Machine-readable; clients branch on it.' },
          message: { type: 'string', description: 'Human text; clients must not branch on it.' },
          status: { type: 'integer' },
          details: {
            type: 'array',
            items: {
              type: 'object',
              required: ['in', 'pointer', 'message'],
              properties: { in: { type: 'string' }, pointer: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
      },
    },
  };
}

/** The reply of `?dry_run=true` (kernel/pipeline/steps/dry-run.ts builds it). */
export const DRY_RUN_REPORT_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The answer to dry_run=true: every check and the change ran in a transaction that was rolled back.',
  required: ['dry_run', 'persisted', 'operation', 'tenant_id', 'permission', 'would'],
  properties: {
    dry_run: { const: true },
    persisted: { const: false },
    operation: { type: 'string' },
    tenant_id: { type: ['string', 'null'] },
    permission: { type: 'string', description: 'The permission that was checked.' },
    would: {
      type: 'object',
      description: 'The reply the call would have given.',
      required: ['status'],
      properties: {
        status: { type: 'integer' },
        body: { description: 'The body it would have answered, if any.' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
  },
};
