import { startTarget, load, ratio, type Figures, type LoadOptions, type Running } from './harness.js';

export interface BenchContext {
  database: Record<string, string>;
}

export interface Scenario {
  name: string;
  title: string;
  run(context: BenchContext): Promise<Record<string, unknown>>;
}

const KERNEL_BASE = { plugins: ['system', 'components'], auth: { mode: 'none' }, log: { level: 'warn' } };

function kernelEnv(context: BenchContext, overrides: Record<string, unknown> = {}): Record<string, string> {
  return { BENCH_OVERRIDES: JSON.stringify({ ...KERNEL_BASE, database: context.database, ...overrides }) };
}

async function withTarget<T>(name: string, env: Record<string, string>, work: (target: Running) => Promise<T>): Promise<T> {
  const target = await startTarget(name, env);
  try {
    return await work(target);
  } finally {
    await target.stop();
  }
}

/** Runs kernel and baseline alternately, twice each, keeping each side's best round. */
async function compare(kernel: () => Promise<Figures>, baseline: () => Promise<Figures>): Promise<{ kernel: Figures; baseline: Figures }> {
  const best = (a: Figures | undefined, b: Figures): Figures => (!a || b.rps > a.rps ? b : a);
  let k: Figures | undefined;
  let b: Figures | undefined;
  for (let round = 0; round < 2; round++) {
    k = best(k, await kernel());
    b = best(b, await baseline());
  }
  return { kernel: k as Figures, baseline: b as Figures };
}

async function seedComponents(url: string, count: number, headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/components`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ id: `seed-${String(i).padStart(5, '0')}`, name: `Seed ${i}`, tags: ['bench'] }),
    });
    if (res.status !== 201 && res.status !== 409) throw new Error(`seeding answered ${res.status}`);
  }
}

function summary(result: { kernel: Figures; baseline: Figures }, target: number): Record<string, unknown> {
  const r = ratio(result.kernel.rps, result.baseline.rps);
  return { kernel: result.kernel, baseline: result.baseline, ratio_rps: r, ratio_p99: ratio(result.kernel.p99_ms, result.baseline.p99_ms), target_rps_ratio: target, meets_target: r >= target };
}

const health: Scenario = {
  name: 'health',
  title: 'GET /health: kernel vs bare Koa with the same handler (target ≥ 0.9×)',
  async run(context) {
    const options: LoadOptions = { path: '/health' };
    const result = await compare(
      () => withTarget('kernel', kernelEnv(context), (t) => load(t.url, options)),
      () => withTarget('bare-koa', {}, (t) => load(t.url, options)),
    );
    return summary(result, 0.9);
  },
};

const componentsList: Scenario = {
  name: 'components_list',
  title: 'GET /components (100 rows): kernel vs hand-written Koa + knex handler (target ≥ 0.9×)',
  async run(context) {
    await withTarget('kernel', kernelEnv(context), (t) => seedComponents(t.url, 150));
    const options: LoadOptions = { path: '/components' };
    const result = await compare(
      () => withTarget('kernel', kernelEnv(context), (t) => load(t.url, options)),
      () => withTarget('handwritten', { BENCH_DATABASE: JSON.stringify(context.database) }, (t) => load(t.url, options)),
    );
    return summary(result, 0.9);
  },
};

export const scenarios: Scenario[] = [health, componentsList];
