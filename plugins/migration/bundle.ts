import { createHash } from 'node:crypto';
import { ApiError } from '../../kernel/errors.js';
import { canonicalJson } from '../../kernel/plugin/api.js';
import type { BundleItem } from './contract.js';

export const BUNDLE_FORMAT = 'runtime-bundle/1';

export interface Bundle {
  format: string;
  source_tenant_id: string;
  exported_at: string;
  resources: Record<string, BundleItem[]>;
  hash: string;
}

/** The content hash: of the resources only, canonical JSON, so the same content always hashes alike. */
export function contentHash(resources: Record<string, BundleItem[]>): string {
  return `sha256:${createHash('sha256').update(canonicalJson(resources)).digest('hex')}`;
}

/** A bundle as received: its format known, and its hash that of its content (400 otherwise). */
export function checkBundle(bundle: Bundle, kinds: ReadonlySet<string>): void {
  if (bundle.format !== BUNDLE_FORMAT)
    throw new ApiError(
      'validation_error',
      `Unknown bundle format "${bundle.format}"; this kernel reads ${BUNDLE_FORMAT}.`,
      { details: [{ in: 'body', pointer: '/bundle/format', message: `is not ${BUNDLE_FORMAT}` }] },
    );
  for (const kind of Object.keys(bundle.resources)) {
    if (!kinds.has(kind))
      throw new ApiError(
        'validation_error',
        `The bundle holds ${kind}, which no enabled plugin can promote (known: ${[...kinds].join(', ')}).`,
        {
          details: [
            {
              in: 'body',
              pointer: `/bundle/resources/${kind}`,
              message: 'is not a resource kind an enabled plugin promotes',
            },
          ],
        },
      );
    const ids = new Set<string>();
    for (const [i, item] of bundle.resources[kind]!.entries()) {
      if (ids.has(item.id))
        throw new ApiError('validation_error', `The bundle holds ${kind} "${item.id}" twice.`, {
          details: [{ in: 'body', pointer: `/bundle/resources/${kind}/${i}/id`, message: 'is a duplicate' }],
        });
      ids.add(item.id);
    }
  }
  const actual = contentHash(bundle.resources);
  if (actual !== bundle.hash) {
    throw new ApiError(
      'validation_error',
      "The bundle's hash does not match its content: it was changed after export.",
      {
        details: [
          { in: 'body', pointer: '/bundle/hash', message: `is ${bundle.hash}; the content hashes to ${actual}` },
        ],
      },
    );
  }
}
