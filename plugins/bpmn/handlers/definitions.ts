import { ApiError } from '../../../kernel/errors.js';
import { afterKey, pageOf } from '../../../kernel/plugin/api.js';
import type { Call, Handler } from '../../../kernel/types.js';
import type { BpmnService } from '../service.js';
import { DefinitionStore, definitionView } from '../store.js';

const tenant = (call: Call): string => call.tenantId as string;

/** POST/GET /bpmn/definitions, GET /bpmn/definitions/{key} and its XML. */
export function definitionHandlers(service: BpmnService): Record<string, Handler> {
  return {
    async deployBpmnDefinition(call) {
      const bytes = Buffer.isBuffer(call.body) ? call.body : Buffer.alloc(0);
      const xml = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
      if (xml.includes('\u0000')) throw new ApiError('validation_error', 'The XML holds a NUL character.', { details: [{ in: 'body', pointer: '', message: 'holds NUL' }] });
      const { definition, created } = await service.deploy(call.db, tenant(call), xml);
      call.resourceId = definition.key;
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), process_id: definition.process_id, version: definition.version, created };
      return { status: 201, body: definitionView(definition), headers: { Location: `/bpmn/definitions/${definition.key}` } };
    },

    async listBpmnDefinitions(call) {
      const page = pageOf(call);
      const processId = typeof call.query.process_id === 'string' ? call.query.process_id : undefined;
      const rows = await new DefinitionStore(call.db).list(tenant(call), processId !== undefined ? { process_id: processId } : {}, afterKey(page), page.fetch);
      return { status: 200, body: { items: rows.map(definitionView) } };
    },

    async getBpmnDefinition(call) {
      return { status: 200, body: definitionView(await service.definition(call.db, tenant(call), String(call.params.key))) };
    },

    async getBpmnDefinitionXml(call) {
      const definition = await service.definition(call.db, tenant(call), String(call.params.key));
      return { status: 200, body: definition.xml };
    },
  };
}
