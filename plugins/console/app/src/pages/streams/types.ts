import type { components } from '../../api/schema';

export type StreamMessage = components['schemas']['streams.Message'];
export type Stream = components['schemas']['streams.Stream'];
