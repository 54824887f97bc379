import { ApiError } from '../../../kernel/errors.js';
import { afterKey, operationHandlers, pageOf } from '../../../kernel/plugin/api.js';
import type { Handler } from '../../../kernel/types.js';
import type { Operations } from '../generated/manifest-types.js';
import type { BpmnService } from '../service.js';
import { DefinitionStore, definitionView } from '../store.js';
import { decodeXml } from '../xml-encoding.js';

/** POST/GET /bpmn/definitions, GET /bpmn/definitions/{key} and its XML. */
export function definitionHandlers(service: BpmnService): Record<string, Handler> {
  return operationHandlers<Operations>({
    async deployBpmnDefinition(call) {
      const xml = decodeXml(Buffer.isBuffer(call.body) ? call.body : Buffer.alloc(0));
      if (xml.includes('\u0000'))
        throw new ApiError('validation_error', 'The XML holds a NUL character.', {
          details: [{ in: 'body', pointer: '', message: 'holds NUL' }],
        });
      const { definitions, warnings } = await service.deploy(call.db, call.tenantId, xml);
      // The answer is the first executable process's definition (the one a single-process file has), with all of them listed.
      const main = definitions.find((d) => d.definition.meta.executable !== false) ?? definitions[0]!;
      call.resourceId = main.definition.key;
      call.notes.auditDetail = {
        ...(call.notes.auditDetail ?? {}),
        process_id: main.definition.process_id,
        version: main.definition.version,
        created: main.created,
        definitions: definitions.map((d) => ({
          key: d.definition.key,
          process_id: d.definition.process_id,
          version: d.definition.version,
        })),
      };
      return {
        status: 201,
        body: {
          ...definitionView(main.definition),
          definitions: definitions.map((d) => ({ ...definitionView(d.definition), created: d.created })),
          warnings,
        },
        headers: { Location: `/bpmn/definitions/${main.definition.key}` },
      };
    },

    async listBpmnDefinitions(call) {
      const page = pageOf(call);
      const processId = call.query.process_id;
      const rows = await new DefinitionStore(call.db).list(
        call.tenantId,
        processId !== undefined ? { process_id: processId } : {},
        afterKey(page),
        page.fetch,
      );
      return { status: 200, body: { items: rows.map(definitionView) } };
    },

    async getBpmnDefinition(call) {
      return {
        status: 200,
        body: definitionView(await service.definition(call.db, call.tenantId, call.params.key)),
      };
    },

    async getBpmnDefinitionXml(call) {
      const definition = await service.definition(call.db, call.tenantId, call.params.key);
      return { status: 200, body: definition.xml };
    },
  });
}
