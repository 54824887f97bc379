import { BOOT_PHASES } from '../../../kernel/boot/phases.js';
import { code, generatedNotice, page, table } from './markdown.js';

/** docs/reference/boot-phases.md: the boot's phases, in order, as kernel/boot/phases.ts lists them. */
export function bootPhasesPage(): string {
  return page([
    generatedNotice('`BOOT_PHASES` in `kernel/boot/phases.ts`'),
    '# Boot phases',
    [
      'What a start does, phase by phase, in the order a start on the embedded database runs them.',
      'Each start logs the milliseconds every phase took on its `serving` line, under these names:',
      '`boot_ms` (wall time) and `boot_cpu_ms` (CPU time of the process, every thread counted).',
      'What can fail where, and how `close()` runs the boot back, is in',
      '[the lifecycle](../plugin-authors/lifecycle.md).',
    ].join('\n'),
    table(
      ['#', 'Phase', 'What it does'],
      BOOT_PHASES.map((phase, index) => [String(index + 1), code(phase.name), phase.does]),
    ),
  ]);
}
