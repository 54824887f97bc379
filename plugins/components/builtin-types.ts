import type { ComponentType } from './contract.js';

/**
 * The one type the components plugin gives itself: a processor that passes each message on
 * unchanged. It needs no other plugin, so a deployment with only `components` enabled can still
 * make components (and the kernel's own tests use it as their plain resource).
 */
export const passthroughType: ComponentType = {
  name: 'passthrough',
  kind: 'processor',
  summary: 'Passes each message on unchanged',
  config_schema: { type: 'object', additionalProperties: true, description: 'Free-form; nothing is read from it.' },
  create: () => ({ process: async (message) => [message] }),
};
