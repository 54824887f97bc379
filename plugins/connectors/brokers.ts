/**
 * The broker client libraries, imported on a connector's first connect rather than at boot:
 * loading mqtt, amqplib and nats costs a few hundred milliseconds of every start, and most
 * installations run few or none of these connectors. Node caches each import after the first.
 */
export const brokers = {
  mqtt: async (): Promise<typeof import('mqtt').default> => (await import('mqtt')).default,
  amqp: async (): Promise<typeof import('amqplib')> => await import('amqplib'),
  nats: async (): Promise<typeof import('nats')> => await import('nats'),
};
