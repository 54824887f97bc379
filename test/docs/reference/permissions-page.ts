import { code, generatedNotice, page, table } from './markdown.js';
import type { ReferenceSources } from './sources.js';

/** docs/reference/permissions-and-roles.md: every declared permission, and each built-in role's. */
export function permissionsPage(sources: Pick<ReferenceSources, 'permissions' | 'roles'>): string {
  const { permissions, roles } = sources;
  return page([
    generatedNotice("each enabled plugin's manifest (`permissions`) and a started server's `GET /roles`"),
    '# Permissions and roles',
    [
      'A route names the one permission it needs ([operations](operations.md) lists them); a caller',
      'holds the permissions of its roles. Plugins declare their permissions in their manifests; the',
      'built-in roles are derived from them, so a new plugin’s permissions land in the right roles.',
      'Custom roles of a tenant are made from these permissions (`POST /roles`).',
    ].join('\n'),
    '## Built-in roles',
    table(
      ['Role', 'What it is for', 'Permissions'],
      roles.map((role) => [code(role.id), role.description, String(role.permissions.length)]),
    ),
    '## Permissions',
    `Which built-in role holds each permission (✓). Besides these, a route may be \`authenticated\` (any valid credential) or \`public\` (none).`,
    table(
      ['Permission', 'Plugin', 'What it allows', ...roles.map((role) => code(role.id))],
      permissions.map((p) => [
        code(p.name),
        p.plugin,
        p.description,
        ...roles.map((role) => (role.permissions.includes(p.name) ? '✓' : '')),
      ]),
    ),
  ]);
}
