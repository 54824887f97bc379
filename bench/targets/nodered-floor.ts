import { randomBytes } from 'node:crypto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import pg from 'pg';
import { openEmbedded } from '../../kernel/db/embedded.js';
import { createSandbox, type Sandbox, type SandboxJob, type SandboxResult } from '../../sandbox/index.js';

/**
 * The durable floor of the nodered bench: the least work the runtime's guarantees need for the
 * job (MQTT in → script → MQTT out), hand-written, no kernel. One MQTT connection (MQTT 5, QoS 1,
 * persistent session); whatever arrived while the last batch was busy is the next batch:
 * 1. each input runs through the script in the project's sandbox (sandbox/, QuickJS in worker
 *    threads, the pool the workflows plugin's `script` step uses), all of the batch at once;
 * 2. one statement, so one commit: the inputs, the outputs with their ids, and the outputs whose
 *    publish the broker acknowledged since the last batch marked delivered;
 * 3. the inputs' PUBACKs go out (held until then), the outputs are published (QoS 1, the id as the
 *    `message-id` user property, as the runtime's `mqtt.publish` does);
 * 4. each output the broker acknowledged is marked delivered by the next batch's statement (or on
 *    its own a few milliseconds later when no input waits).
 * At start, outputs recorded and not marked delivered are published again (same ids). A SIGKILL
 * at any point loses nothing: an input not yet committed was not acknowledged, so the broker
 * delivers it again; an output committed is published until it is marked delivered.
 *
 * For the bench's breakdown of the floor's cost, BENCH_FLOOR.script = 'host' runs the script as
 * a plain function in this process (never allowed for tenant code: measurement only),
 * 'sandbox-batch' runs a whole batch in one sandbox run (see batchRunner; measurement only), and
 * BENCH_FLOOR.store = 'none' writes nothing (no durability at all).
 */
interface FloorConfig {
  broker: string;
  inTopic: string;
  outTopic: string;
  clientId: string;
  source: string;
  /** The MQTT 5 receive maximum (the broker's in-flight window towards us). */
  receiveMaximum?: number;
  database: { url?: string; data_dir?: string; schema?: string };
  script?: 'sandbox' | 'host' | 'sandbox-batch';
  store?: 'database' | 'none';
}
const config = JSON.parse(process.env.BENCH_FLOOR ?? '{}') as FloorConfig;
/** Most inputs one batch takes (the broker's window, not this, usually bounds it). */
const MAX_BATCH = 2000;
/** How long acknowledged outputs wait for a batch of inputs to be marked delivered with, before being marked on their own. */
const MARK_DELAY_MS = 5;

interface Input {
  id: string;
  messageId: number;
  topic: string;
  body: string;
}
interface Output {
  id: string;
  inputId: string;
  body: string;
}

/** One commit per call: the batch's inputs and outputs, and outputs delivered since the last call. */
interface Store {
  write(inputs: readonly Input[], outputs: readonly Output[], delivered: readonly string[]): Promise<void>;
  undelivered(): Promise<Output[]>;
  close(): Promise<void>;
}

const DDL = `CREATE TABLE IF NOT EXISTS floor_inputs (id text PRIMARY KEY, topic text NOT NULL, body text NOT NULL);
CREATE TABLE IF NOT EXISTS floor_outputs (id text PRIMARY KEY, input_id text NOT NULL, body text NOT NULL, delivered boolean NOT NULL DEFAULT false)`;
// Arrays in, one statement: the inputs, the outputs, the delivered marks (a CTE's UPDATE cannot see
// rows its sibling inserts; the marks are of earlier batches' outputs, so it need not).
const WRITE = `WITH i AS (INSERT INTO floor_inputs (id, topic, body) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])),
  o AS (INSERT INTO floor_outputs (id, input_id, body) SELECT * FROM unnest($4::text[], $5::text[], $6::text[])),
  d AS (UPDATE floor_outputs SET delivered = true WHERE id = ANY($7::text[]))
SELECT 1`;
const UNDELIVERED = 'SELECT id, input_id AS "inputId", body FROM floor_outputs WHERE NOT delivered ORDER BY id';
const params = (inputs: readonly Input[], outputs: readonly Output[], delivered: readonly string[]) => [
  inputs.map((i) => i.id),
  inputs.map((i) => i.topic),
  inputs.map((i) => i.body),
  outputs.map((o) => o.id),
  outputs.map((o) => o.inputId),
  outputs.map((o) => o.body),
  delivered,
];

async function openStore(): Promise<Store> {
  if (config.store === 'none')
    return { write: async () => undefined, undelivered: async () => [], close: async () => undefined };
  if (config.database.url) {
    // One connection: the batches' statements are sequential anyway. Named, so the bench can find its backend's CPU.
    const client = new pg.Client({ connectionString: config.database.url, application_name: config.clientId });
    await client.connect();
    const schema = `${config.database.schema ?? 'bench'}_floor`;
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema}; ${DDL}`);
    return {
      write: async (inputs, outputs, delivered) => void (await client.query(WRITE, params(inputs, outputs, delivered))),
      undelivered: async () => (await client.query<Output>(UNDELIVERED)).rows,
      close: () => client.end(),
    };
  }
  // The embedded database opened as the kernel opens it: file-backed, the product's options.
  const { pglite } = await openEmbedded(config.database.data_dir);
  await pglite.exec(DDL);
  return {
    write: async (inputs, outputs, delivered) => void (await pglite.query(WRITE, params(inputs, outputs, delivered))),
    undelivered: async () => (await pglite.query<Output>(UNDELIVERED)).rows,
    close: () => pglite.close(),
  };
}

/** What the script pushed for each input (the runtime's `script` step: pushes go onward). */
type Runner = (inputs: readonly Input[]) => Promise<unknown[][]>;

/**
 * A run again when it hit its deadline: the deadline is wall-clock time, and on a machine so
 * loaded that a worker thread waits for a core a short script can pass it (the runtime retries
 * such a run as well).
 */
async function runWithRetries(sandbox: Sandbox, job: SandboxJob): Promise<SandboxResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await sandbox.run(job);
    if (result.ok || result.error?.limit !== 'deadline' || attempt === 5) {
      if (!result.ok) throw new Error(`script failed: ${result.error?.message ?? 'unknown'}`);
      return result;
    }
  }
}

function sandboxRunner(): { run: Runner; close(): Promise<void> } {
  const sandbox = createSandbox();
  const files = { 'main.js': config.source };
  return {
    run: (inputs) =>
      Promise.all(
        inputs.map(async (input) => {
          const result = await runWithRetries(sandbox, {
            tenantId: 'default',
            files,
            entry: 'main.js',
            input: { body: input.body, headers: { 'mqtt-topic': input.topic }, key: null },
          });
          return result.pushed;
        }),
      ),
    close: () => sandbox.close(),
  };
}

/**
 * Measurement only: one sandbox run per batch instead of per input. Guest code calls the script
 * once for each input, handing it a `service` of its own that collects what it pushes, in the
 * same session: the script's code still runs only in the sandbox, but one input's run could see
 * what another left behind (the sandbox's fresh session per run is what this gives up). The gap
 * to the per-input floor is the sandbox's cost per run (session restore, module compile, the
 * boundary); what is left is the script's own work in QuickJS.
 */
function batchRunner(): { run: Runner; close(): Promise<void> } {
  const sandbox = createSandbox();
  const files = {
    'main.js': `const script = new Function('input', 'service', ${JSON.stringify(config.source)});
const all = [];
for (const one of service.json.decode(input.body)) {
  const pushed = [];
  script(one, { json: service.json, route: { push: (value) => void pushed.push(value) } });
  all.push(pushed);
}
result = all;`,
  };
  return {
    run: async (inputs) => {
      const result = await runWithRetries(sandbox, {
        tenantId: 'default',
        files,
        entry: 'main.js',
        // A batch is up to MAX_BATCH inputs: the default second would be its deadline, not one input's.
        limits: { deadline_ms: 30_000 },
        input: {
          body: JSON.stringify(inputs.map((i) => ({ body: i.body, headers: { 'mqtt-topic': i.topic }, key: null }))),
          headers: {},
          key: null,
        },
      });
      return result.result as unknown[][];
    },
    close: () => sandbox.close(),
  };
}

/** Measurement only: the same script as a plain function in this process. */
function hostRunner(): { run: Runner; close(): Promise<void> } {
  const fn = new Function('input', 'service', config.source) as (input: unknown, service: unknown) => void;
  return {
    run: async (inputs) =>
      inputs.map((input) => {
        const pushed: unknown[] = [];
        fn(
          { body: input.body, headers: { 'mqtt-topic': input.topic }, key: null },
          {
            json: { decode: (raw: string) => JSON.parse(raw) },
            route: { push: (value: unknown) => pushed.push(value) },
          },
        );
        return pushed;
      }),
    close: async () => undefined,
  };
}

interface PacketSender {
  _sendPacket(packet: { cmd: string; messageId?: number }, cb?: (err?: Error) => void, ...rest: unknown[]): void;
}

/**
 * Keeps each QoS 1 input's PUBACK back until `release`: MQTT.js sends it as soon as its message
 * handler calls back, and reads the next packet only then, so the handler calls back at once and
 * the PUBACK is parked here (MQTT.js has no public manual acknowledgement that lets the next
 * message be read meanwhile).
 */
function holdPubacks(client: MqttClient): { hold(messageId: number): void; release(messageIds: number[]): void } {
  const sender = client as unknown as PacketSender;
  const send = sender._sendPacket.bind(client);
  const held = new Set<number>();
  const parked = new Map<number, unknown[]>();
  sender._sendPacket = (packet, cb, ...rest) => {
    if (packet.cmd !== 'puback' || packet.messageId === undefined || !held.has(packet.messageId))
      return send(packet, cb, ...rest);
    held.delete(packet.messageId);
    parked.set(packet.messageId, [packet, undefined, ...rest]);
    cb?.();
  };
  return {
    hold: (messageId) => void held.add(messageId),
    release(messageIds) {
      for (const id of messageIds) {
        const args = parked.get(id);
        if (!args) continue;
        parked.delete(id);
        (send as (...a: unknown[]) => void)(...args);
      }
    },
  };
}

const store = await openStore();
const runner =
  config.script === 'host' ? hostRunner() : config.script === 'sandbox-batch' ? batchRunner() : sandboxRunner();
const options: IClientOptions = {
  clientId: config.clientId,
  clean: false,
  protocolVersion: 5,
  reconnectPeriod: 0,
  manualConnect: true,
  // The broker's in-flight window is the most it hands over unacknowledged: Mosquitto's is 20 by
  // default, and past its queue (1,000) it drops messages for a consumer that lags. MQTT 5 lets
  // the client raise the window; PUBACKs are held here until the batch commits, so everything the
  // broker holds for us is taken at once and batched.
  properties: { sessionExpiryInterval: 86_400, receiveMaximum: config.receiveMaximum ?? 65_535 },
};
const client = mqtt.connect(config.broker, options);
const pubacks = holdPubacks(client);
/** A prefix unique to this process start, so input ids never repeat across restarts. */
const prefix = randomBytes(6).toString('hex');
let sequence = 0;
let pending: Input[] = [];
let delivered: string[] = [];
let busy = false;
let markTimer: NodeJS.Timeout | undefined;

client.handleMessage = (packet, done) => {
  const body = Buffer.isBuffer(packet.payload) ? packet.payload.toString('utf8') : packet.payload;
  const messageId = packet.messageId ?? 0;
  if (packet.qos === 1) pubacks.hold(messageId);
  pending.push({ id: `${prefix}-${(sequence++).toString(36)}`, messageId, topic: packet.topic, body });
  done();
  void pump();
};

function publish(output: Output): void {
  client.publish(
    config.outTopic,
    output.body,
    { qos: 1, properties: { userProperties: { 'message-id': output.id } } },
    (err) => {
      if (err) return fail(err);
      delivered.push(output.id);
      markTimer ??= setTimeout(() => {
        markTimer = undefined;
        void pump();
      }, MARK_DELAY_MS);
    },
  );
}

/** One batch at a time: script, one commit, PUBACKs, publishes; the next batch is what arrived meanwhile. */
async function pump(): Promise<void> {
  if (busy) return;
  busy = true;
  try {
    // Marks alone wait for their timer (a batch of inputs arriving meanwhile takes them along).
    while (pending.length > 0 || (delivered.length > 0 && markTimer === undefined)) {
      const batch = pending.length > MAX_BATCH ? pending.splice(0, MAX_BATCH) : pending;
      if (batch === pending) pending = [];
      const pushed = await runner.run(batch);
      const outputs: Output[] = [];
      batch.forEach((input, i) => {
        (pushed[i] as unknown[]).forEach((value, n) =>
          outputs.push({ id: `${input.id}.${n}`, inputId: input.id, body: JSON.stringify(value) }),
        );
      });
      const marks = delivered;
      delivered = [];
      await store.write(batch, outputs, marks);
      client.stream.cork();
      pubacks.release(batch.map((i) => i.messageId));
      for (const output of outputs) publish(output);
      process.nextTick(() => client.stream.uncork());
    }
  } catch (err) {
    fail(err);
  } finally {
    busy = false;
  }
}

function fail(err: unknown): never {
  process.stderr.write(`nodered-floor: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

client.on('error', fail);
client.on('close', () => {
  if (!stopping) fail(new Error('the connection to the broker closed'));
});
let stopping = false;
await new Promise<void>((resolve, reject) => {
  client.once('connect', () => resolve());
  client.once('error', reject);
  client.connect();
});
for (const output of await store.undelivered()) publish(output);
const granted = await client.subscribeAsync(`${config.inTopic}/#`, { qos: 1 });
if (granted.some((g) => g.qos === 128)) fail(new Error('the broker refused the subscription'));
process.stdout.write(`${JSON.stringify({ url: config.broker })}\n`);
process.on('SIGTERM', () => {
  stopping = true;
  void (async () => {
    await client.endAsync();
    await runner.close();
    await store.close();
    process.exit(0);
  })();
});
