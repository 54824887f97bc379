import { EventEmitter } from 'node:events';
import { Engine } from 'bpmn-engine';
import { startTarget, ratio, type Running } from './harness.js';
import { productNodeFlags } from './product-node-flags.js';
import type { BenchContext, Scenario } from './scenarios.js';

/** The definition both sides run: start → user task → end. */
const XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" id="bench-defs" targetNamespace="urn:bench">
  <process id="bench-approval" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="task"/>
    <userTask id="task"/>
    <sequenceFlow id="f2" sourceRef="task" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>`;
/** The job side's definition: a service task run by a job worker, looping back to itself, so each completion makes the next job. */
const JOB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" id="bench-job-defs" targetNamespace="urn:bench">
  <process id="bench-jobs" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="join"/>
    <exclusiveGateway id="join"/>
    <sequenceFlow id="f2" sourceRef="join" targetRef="work"/>
    <serviceTask id="work"><extensionElements><zeebe:taskDefinition type="bench-work"/></extensionElements></serviceTask>
    <sequenceFlow id="f3" sourceRef="work" targetRef="join"/>
  </process>
</definitions>`;
const WORKERS = 8;
/** Rounds of (API, in-process, floor), each side SECONDS long, the order rotating every round. */
const ROUNDS = 5;
const SECONDS = 3;
/**
 * The sides measured (comma-separated: api, baseline, floor, jobs; all by default). Fewer sides
 * to profile one path (BENCH_KERNEL_FLAGS); a ratio whose sides did not both run is null.
 */
const SIDES = new Set((process.env.BENCH_BPMN_SIDES ?? 'api,baseline,floor,jobs').split(','));

interface Rate {
  instances_per_s: number;
  completed: number;
  errors: number;
}

/** WORKERS loops, each running `one` back to back for `seconds` (after `warmSeconds` not counted); counts whole instances. */
async function measure(one: () => Promise<boolean>, seconds: number, warmSeconds = 0): Promise<Rate> {
  const warmUntil = Date.now() + warmSeconds * 1000;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (Date.now() < warmUntil) await one();
    }),
  );
  let completed = 0;
  let errors = 0;
  const start = Date.now();
  const until = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (Date.now() < until) {
        if (await one()) completed++;
        else errors++;
      }
    }),
  );
  const elapsed = (Date.now() - start) / 1000;
  return { instances_per_s: Math.round((completed / elapsed) * 10) / 10, completed, errors };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A side's rounds as one figure: the median rate, with every round's rate and the totals. */
function summary(rounds: readonly Rate[]): Rate & { rounds: number[] } {
  return {
    instances_per_s: Math.round(median(rounds.map((r) => r.instances_per_s)) * 10) / 10,
    completed: rounds.reduce((n, r) => n + r.completed, 0),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    rounds: rounds.map((r) => r.instances_per_s),
  };
}

/** Through the API: POST /bpmn/instances (runs to the user task), then POST /bpmn/tasks/{id}/complete (runs to the end). */
async function deploy(target: Running): Promise<void> {
  const deployed = await fetch(`${target.url}/bpmn/definitions`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: XML,
  });
  if (deployed.status !== 201) throw new Error(`deploy answered ${deployed.status}`);
}

/** Job instances for the job side: each always has one job (its service task loops), one per worker and as many again. */
async function startJobInstances(target: Running): Promise<void> {
  const deployed = await fetch(`${target.url}/bpmn/definitions`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: JOB_XML,
  });
  if (deployed.status !== 201) throw new Error(`deploy answered ${deployed.status}`);
  for (let i = 0; i < WORKERS * 2; i++) {
    const started = await fetch(`${target.url}/bpmn/instances`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ process_id: 'bench-jobs', variables: { n: i } }),
    });
    if (started.status !== 201) throw new Error(`start answered ${started.status}`);
  }
}

/** Job workers: POST /bpmn/jobs/fetch-and-lock (one job), then POST /bpmn/jobs/{id}/complete; one job per round trip pair. */
function jobWorkers(target: Running, seconds: number, warmSeconds: number): Promise<Rate> {
  const json = { 'content-type': 'application/json' };
  let worker = 0;
  return measure(
    async () => {
      const id = `bench-${worker++ % WORKERS}`;
      const fetched = await fetch(`${target.url}/bpmn/jobs/fetch-and-lock`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ worker_id: id, types: ['bench-work'], lock_duration_ms: 30_000, wait_ms: 1000 }),
      });
      if (fetched.status !== 200) return false;
      const [job] = ((await fetched.json()) as { items: Array<{ id: string }> }).items;
      if (!job) return false;
      const done = await fetch(`${target.url}/bpmn/jobs/${job.id}/complete`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ worker_id: id, variables: { last: id } }),
      });
      await done.arrayBuffer();
      return done.status === 200;
    },
    seconds,
    warmSeconds,
  );
}

/** Through the API: see throughApi. */
function throughApi(target: Running, seconds: number, warmSeconds: number): Promise<Rate> {
  const json = { 'content-type': 'application/json' };
  return measure(
    async () => {
      const started = await fetch(`${target.url}/bpmn/instances`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ process_id: 'bench-approval', variables: { amount: 1 } }),
      });
      if (started.status !== 201) return false;
      const instance = (await started.json()) as { tasks: Array<{ id: string; state: string }> };
      const task = instance.tasks.find((t) => t.state === 'open');
      if (!task) return false;
      const done = await fetch(`${target.url}/bpmn/tasks/${task.id}/complete`, {
        method: 'POST',
        headers: json,
        body: '{}',
      });
      if (done.status !== 200) return false;
      return ((await done.json()) as { state: string }).state === 'completed';
    },
    seconds,
    warmSeconds,
  );
}

/**
 * The floor of the API side: the same two audited POSTs per instance, on a route that does next
 * to nothing (a signal nobody waits for: one SELECT, the audit record, the commit). No advance can
 * cost less than this, so floor ÷ baseline is the highest ratio the API side could reach here.
 */
function auditedFloor(target: Running, seconds: number, warmSeconds: number): Promise<Rate> {
  const json = { 'content-type': 'application/json' };
  return measure(
    async () => {
      for (let i = 0; i < 2; i++) {
        const sent = await fetch(`${target.url}/bpmn/signals`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ name: 'bench-nobody-waits' }),
        });
        if (sent.status !== 200) return false;
        await sent.arrayBuffer();
      }
      return true;
    },
    seconds,
    warmSeconds,
  );
}

/** The baseline: bpmn-engine in this process, no persistence, the same definition and the same two steps. */
function inProcess(seconds: number, warmSeconds: number): Promise<Rate> {
  return measure(
    async () => {
      const engine = new Engine({ name: 'bench', source: XML });
      const listener = new EventEmitter();
      let waiting: { signal(message?: unknown): void } | undefined;
      listener.on('activity.wait', (api: { signal(message?: unknown): void }) => (waiting = api));
      const ended = engine.waitFor('end');
      await engine.execute({ listener, variables: { amount: 1 } } as never);
      // Yield like a request boundary would, then complete the task.
      await new Promise((resolve) => setImmediate(resolve));
      if (!waiting) return false;
      waiting.signal();
      await ended;
      return true;
    },
    seconds,
    warmSeconds,
  );
}

/**
 * `npm run bench bpmn`: start → user task → complete → end, instances/s through the API (HTTP,
 * auth pipeline, audit, persisted engine state, waits and history in the database) vs
 * bpmn-engine running the same definition in-process without persistence, in the same run
 * (target ≥ 0.5×). The machine is shared: the three sides run in short interleaved rounds (the
 * order rotating), so a neighbour's burst falls on all of them alike, and each side keeps the
 * median of its rounds; the ratio is that of the medians (the median of the per-round ratios is
 * printed too). A fourth side, job workers (fetch-and-lock → complete on a looping service task),
 * is set against the floor: the same two audited round trips on a near-empty route.
 */
export const bpmnScenario: Scenario = {
  name: 'bpmn',
  title:
    'bpmn: start → user task → complete → end, instances/s via the API vs in-process bpmn-engine without persistence (≥ 0.5×); job workers fetch-and-lock → complete, jobs/s vs the same two audited calls on a near-empty route (≥ 0.5×)',
  async run(context: BenchContext) {
    const env = {
      BENCH_OVERRIDES: JSON.stringify({
        plugins: ['system', 'audit', 'logs', 'bpmn'],
        auth: { mode: 'none' },
        log: { level: 'warn' },
        database: context.database,
      }),
    };
    const target = await startTarget('kernel', env);
    const rates: Record<'api' | 'baseline' | 'floor' | 'jobs', Rate[]> = { api: [], baseline: [], floor: [], jobs: [] };
    try {
      await deploy(target);
      await startJobInstances(target);
      const sides = {
        api: (warm: number) => throughApi(target, SECONDS, warm),
        baseline: (warm: number) => inProcess(SECONDS, warm),
        floor: (warm: number) => auditedFloor(target, SECONDS, warm),
        jobs: (warm: number) => jobWorkers(target, SECONDS, warm),
      };
      const order = (['api', 'baseline', 'floor', 'jobs'] as const).filter((side) => SIDES.has(side));
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < order.length; i++) {
          const side = order[(round + i) % order.length]!;
          // The first round warms each side up (JIT, caches, the database's pages) before it counts.
          rates[side].push(await sides[side](round === 0 ? 1 : 0));
        }
      }
    } finally {
      await target.stop();
    }
    const api = summary(rates.api);
    const baseline = summary(rates.baseline);
    const floor = summary(rates.floor);
    const jobs = summary(rates.jobs);
    const r = ratio(api.instances_per_s, baseline.instances_per_s);
    return {
      api,
      baseline,
      ratio: r,
      target_ratio: 0.5,
      meets_target: r >= 0.5,
      kernel_node_flags: productNodeFlags(),
      ratio_per_round_median:
        Math.round(median(rates.api.map((a, i) => a.instances_per_s / rates.baseline[i]!.instances_per_s)) * 1000) /
        1000,
      // Two audited calls on a near-empty route, same kernel: the most the API side could do.
      audited_floor: floor,
      floor_ratio: ratio(floor.instances_per_s, baseline.instances_per_s),
      api_of_floor: ratio(api.instances_per_s, floor.instances_per_s),
      // fetch-and-lock → complete, jobs/s (instances_per_s counts jobs here), against the same two audited calls on the near-empty route.
      jobs,
      jobs_of_floor: ratio(jobs.instances_per_s, floor.instances_per_s),
      jobs_target_ratio: 0.5,
      jobs_meet_target: ratio(jobs.instances_per_s, floor.instances_per_s) >= 0.5,
    };
  },
};
