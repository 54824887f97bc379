import { contribute, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { componentDirectoryReceivers, componentTypes, type ComponentDirectory } from '../components/contract.js';
import type { ConnectorsSettings } from './settings.js';
import { amqpPublishType, mqttPublishType, natsPublishType } from './sinks/broker-publish.js';
import { httpRequestType } from './sinks/http-request.js';
import { amqpConsumeType } from './sources/amqp-consume.js';
import { mqttSubscribeType } from './sources/mqtt-subscribe.js';
import { natsSubscribeType } from './sources/nats-subscribe.js';
import { timerType } from './sources/timer.js';
import { webhookHandlers, webhookType } from './sources/webhook.js';

/**
 * Connectors: component types that reach outside the runtime, contributed to `components.types`.
 * Sources (webhook, timer, mqtt.subscribe, amqp.consume, nats.subscribe) append to their
 * component's stream; sinks (http.request, mqtt.publish, amqp.publish, nats.publish) deliver a
 * workflow's messages at-least-once with the message id as idempotency key. The webhook's route
 * reads its component through the directory the components plugin lends (`components.directory`).
 */
export default createPlugin<{ logger: typeof coreServices.logger }, ConnectorsSettings>({
  id: 'connectors',
  manifest: fromRoot('manifests', 'connectors.json'),
  deps: { logger: coreServices.logger },
  setup(_services, { settings }) {
    let directory: ComponentDirectory | undefined;
    const types = [
      webhookType,
      timerType,
      mqttSubscribeType(settings),
      amqpConsumeType(settings),
      natsSubscribeType(settings),
      httpRequestType(settings),
      mqttPublishType(settings),
      amqpPublishType(settings),
      natsPublishType(settings),
    ];
    return {
      handlers: webhookHandlers(() => directory),
      contributions: [
        ...types.map((type) => contribute(componentTypes, type)),
        contribute(componentDirectoryReceivers, { receive: (given: ComponentDirectory) => void (directory = given) }),
      ],
    };
  },
});
