import type { ComponentType } from '../../components/contract.js';

/** The sink the worker writes itself, in its own transaction (exactly-once); it has no runtime of its own. */
export const STREAM_PUBLISH = 'stream.publish';

export const streamPublishType: ComponentType = {
  name: STREAM_PUBLISH,
  kind: 'sink',
  summary: 'Appends each message to a stream of the tenant, in the same transaction as the input offset commit.',
  config_schema: {
    type: 'object',
    additionalProperties: false,
    required: ['stream'],
    properties: {
      stream: { type: 'string', minLength: 1, maxLength: 200, description: 'Id of the target stream.' },
      key: {
        type: 'string',
        maxLength: 1000,
        description: "Key of the written messages (default: the input message's key).",
      },
    },
  },
  create: () => ({}),
};

/** `log`: writes each message to the logs domain. */
export const logType: ComponentType = {
  name: 'log',
  kind: 'sink',
  summary: 'Writes each message to the runtime log (GET /logs).',
  config_schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      level: { enum: ['debug', 'info', 'warn', 'error'], default: 'info', description: 'The level of the log record.' },
    },
  },
  create(config) {
    const level = (config.level as 'debug' | 'info' | 'warn' | 'error' | undefined) ?? 'info';
    return {
      async deliver(message, context) {
        const value =
          message.value !== undefined
            ? message.value
            : message.body
              ? Buffer.from(message.body).toString('base64')
              : null;
        context.log(level, 'message delivered to log sink', { message: message.id, key: message.key, value });
      },
    };
  },
};
