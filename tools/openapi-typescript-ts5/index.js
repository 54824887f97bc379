import openapiTS, { astToString } from 'openapi-typescript';

/** The TypeScript types openapi-typescript generates for a document, with its default options. */
export async function generateTypes(document) {
  return astToString(await openapiTS(document));
}
