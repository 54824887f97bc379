import { api } from '../../api/client';
import { ApiError, toApiError } from '../../api/errors';

/** A definition's BPMN XML as text (the route answers application/xml, not JSON). */
export async function definitionXml(key: string): Promise<string> {
  const result = await api
    .GET('/bpmn/definitions/{key}/xml', { params: { path: { key } }, parseAs: 'text' })
    .catch((err: Error) => {
      throw new ApiError(0, 'network_error', `The server could not be reached (${err.message}).`);
    });
  if (!result.response.ok) throw toApiError(result.response, result.error);
  return result.data as unknown as string;
}
