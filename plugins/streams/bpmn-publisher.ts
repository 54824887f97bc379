import type { Knex } from 'knex';
import { contribute, type Contribution } from '../../kernel/plugin/api.js';
import { bpmnPublishers, type BpmnPublication, type BpmnPublisher } from '../bpmn/contract.js';
import { encodeBatch } from './encode.js';
import type { StreamsService } from './service.js';

/**
 * What the streams plugin gives BPMN: a service task with `implementation="stream:<id>"`
 * appends the instance's variables to that stream, in the advancing transaction (so the task
 * completes exactly when the append is durable). Vanishes when the bpmn plugin is not enabled.
 */
export function bpmnStreamPublisher(service: StreamsService): Contribution<unknown> {
  const publisher: BpmnPublisher = {
    scheme: 'stream',
    async publish(trx: Knex.Transaction, publication: BpmnPublication) {
      const { stream, ref } = await service.stream(trx, publication.tenantId, publication.target);
      const codec = await service.codecOf(trx, stream);
      const messages = encodeBatch(
        [
          {
            ...(publication.key !== null ? { key: publication.key } : {}),
            headers: publication.headers,
            value: publication.value,
          },
        ],
        stream,
        codec,
        service.limits,
      );
      const { appended } = await service.publish(trx, ref, messages, { dryRun: false });
      const first = appended[0]!;
      return { stream: publication.target, message_id: first.id, partition: first.partition, offset: first.offset };
    },
  };
  return contribute(bpmnPublishers, publisher) as Contribution<unknown>;
}
