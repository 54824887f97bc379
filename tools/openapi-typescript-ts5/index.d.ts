/** The TypeScript types openapi-typescript generates for a document, with its default options. */
export function generateTypes(document: Record<string, unknown>): Promise<string>;
