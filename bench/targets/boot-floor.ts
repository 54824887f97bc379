import { performance } from 'node:perf_hooks';

/**
 * The floor under the boot budgets, one part per process (BENCH_FLOOR selects it), so each
 * starts cold as a real start does. Prints one JSON line: wall ms and the process's CPU ms.
 * - `node`: an empty Node process.
 * - `modules`: loading the kernel and the profile's plugins (what main does before it boots).
 * - `pglite`: a bare PGlite started on a fresh data dir (from the kept initdb template) and
 *   every migration of the profile run on it; `pglite_start` is the start alone.
 * - `scrypt`: the bootstrap admin's password hash at the identity plugin's parameters.
 */
const part = process.env.BENCH_FLOOR ?? 'node';
const profile = process.env.BENCH_FLOOR_PROFILE ?? 'local';
const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return Math.round((usage.user + usage.system) / 1000);
};
const figures: Record<string, number> = {};

if (part === 'node') {
  figures.ms = Math.round(performance.now());
} else if (part === 'modules') {
  const { loadConfig } = await import('../../kernel/config/load.js');
  await import('../../kernel/boot.js');
  const { resolvePlugins } = await import('../../kernel/boot/resolve.js');
  await resolvePlugins(loadConfig({ profile, env: { PORT: '0' } }), []);
  figures.ms = Math.round(performance.now());
} else if (part === 'pglite') {
  // Everything it needs is loaded first: what is timed is the database alone.
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { loadConfig } = await import('../../kernel/config/load.js');
  const { resolvePlugins } = await import('../../kernel/boot/resolve.js');
  const { migrationOwners } = await import('../../kernel/boot/migrate.js');
  const { runMigrations } = await import('../../kernel/db/migrate.js');
  const { openEmbedded } = await import('../../kernel/db/embedded.js');
  const { default: ClientPgLite } = await import('knex-pglite');
  const { default: knexFactory } = await import('knex');
  const owners = migrationOwners(await resolvePlugins(loadConfig({ profile, env: { PORT: '0' } }), []));
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  try {
    const cpuBefore = cpuMs();
    const started = performance.now();
    // No migration key: the bare initdb template, never the migrated one.
    const { pglite } = await openEmbedded(dir);
    await pglite.waitReady;
    await pglite.query('SELECT 1');
    figures.start_ms = Math.round(performance.now() - started);
    figures.start_cpu_ms = cpuMs() - cpuBefore;
    const knex = knexFactory({
      client: ClientPgLite as unknown as typeof knexFactory.Client,
      dialect: 'postgres',
      connection: { pglite },
    } as never);
    await runMigrations(knex, owners);
    figures.ms = Math.round(performance.now() - started);
    figures.migrations = owners.reduce((n, o) => n + o.migrations.length, 0);
    figures.cpu_ms_since_start = cpuMs() - cpuBefore;
    await knex.destroy();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else if (part === 'scrypt') {
  const { hashPassword } = await import('../../plugins/identity/passwords/scrypt.js');
  const started = performance.now();
  const cpuBefore = cpuMs();
  await hashPassword('bench-floor-password-0000', { logN: 17, r: 8, p: 1 });
  figures.ms = Math.round(performance.now() - started);
  // scrypt runs on a libuv worker: the process's CPU counts it.
  figures.cpu_ms_since_start = cpuMs() - cpuBefore;
}
figures.cpu_ms ??= cpuMs();
process.stdout.write(`${JSON.stringify(figures)}\n`);
