import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { scenarios, type BenchContext } from './scenarios.js';

/**
 * `npm run bench`: each scenario measures the kernel and its baseline in the same run, on the
 * same database, and prints figures and ratios; the last line is one JSON object with all of them.
 * Set DATABASE_URL to run against PostgreSQL instead of the embedded database.
 */
const only = process.argv.slice(2);
const results: Record<string, unknown> = {};
for (const scenario of scenarios) {
  if (only.length > 0 && !only.includes(scenario.name)) continue;
  const context: BenchContext = {
    database: process.env.DATABASE_URL
      ? { url: process.env.DATABASE_URL, schema: `bench_${randomBytes(4).toString('hex')}` }
      : { data_dir: mkdtempSync(join(tmpdir(), 'bench-db-')) },
    earlier: results,
  };
  process.stdout.write(`\n## ${scenario.name}: ${scenario.title}\n`);
  try {
    const figures = await scenario.run(context);
    results[scenario.name] = figures;
    for (const [key, value] of Object.entries(figures))
      process.stdout.write(`  ${key.padEnd(34)} ${JSON.stringify(value)}\n`);
  } catch (err) {
    results[scenario.name] = { error: (err as Error).message };
    process.stdout.write(`  failed: ${(err as Error).stack ?? String(err)}\n`);
  }
}
process.stdout.write(
  `\n${JSON.stringify({ bench: results, database: process.env.DATABASE_URL ? 'postgres' : 'embedded', at: new Date().toISOString() })}\n`,
);
