import { code, generatedNotice, page, table } from './markdown.js';
import type { ReferenceSources } from './sources.js';

/** docs/reference/errors.md: the one error catalogue, the kernel's codes and every plugin's. */
export function errorsPage(errors: ReferenceSources['errors']): string {
  const sorted = [...errors].sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
  return page([
    generatedNotice("`kernel/errors.ts`'s catalogue and each enabled plugin's manifest (`error_codes`)"),
    '# Error codes',
    [
      'Every error the API returns has this body, with one of the codes below; branch on `error.code`,',
      'not on the message (4xx messages say what was wrong; 5xx messages never carry internals):',
    ].join('\n'),
    '```json\n{"error": {"code": "validation_error", "message": "…", "status": 400, "details": [{"in": "body", "pointer": "/name", "message": "…"}]}}\n```',
    '`details` (when present) points at each failing place of the request: `in` is `body`, `query`, `params` or `headers`.',
    table(
      ['Code', 'Status', 'Meaning', 'Declared by'],
      sorted.map((e) => [code(e.code), String(e.status), e.meaning, e.declaredBy]),
    ),
  ]);
}
