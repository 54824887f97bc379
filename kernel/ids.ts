/** Stable ids: a client-chosen id, or a slug derived from the name (DESIGN.md "ids"). */
export const ID_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';

export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/g, '');
}
