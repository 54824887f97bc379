import { bootPhasesPage } from './boot-phases-page.js';
import { componentTypesPage } from './component-types-page.js';
import { errorsPage } from './errors-page.js';
import { operationsPage } from './operations-page.js';
import { permissionsPage } from './permissions-page.js';
import { settingsPage } from './settings-page.js';
import type { ReferenceSources } from './sources.js';

/** Each generated page (path from the project root) and its text. */
export function referencePages(sources: ReferenceSources): Record<string, string> {
  return {
    'docs/reference/operations.md': operationsPage(sources.openapi),
    'docs/reference/permissions-and-roles.md': permissionsPage(sources),
    'docs/reference/errors.md': errorsPage(sources.errors),
    'docs/reference/settings.md': settingsPage(sources),
    'docs/reference/component-types.md': componentTypesPage(sources.componentTypes),
    'docs/reference/boot-phases.md': bootPhasesPage(),
  };
}
