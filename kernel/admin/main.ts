import { pino } from 'pino';
import { loadConfig, ConfigError } from '../config/load.js';
import type { KernelConfig } from '../config/types.js';
import { createKernel, createLogger } from '../boot.js';
import { DataDirInUseError } from '../db/data-dir-lock.js';
import { ApiError } from '../errors.js';
import { resolvePlugin, type ResolvedPlugin } from '../plugin/resolve.js';
import { pluginSettings } from '../plugin/settings.js';
import type { MaintenanceCommand } from '../types.js';
import { CommandError } from './command-error.js';

/**
 * `npm run admin -- <command> [arguments]` (or `node kernel/admin.mjs ...`): runs one operator
 * command that an enabled plugin offers, in a kernel booted in maintenance mode — migrated and set
 * up on the configured database, never listening. On the embedded database it takes the data
 * directory's lock like a server, so it refuses while a server runs there.
 *
 * Exit codes, as the server's: 0 done, 1 the command failed, 2 wrong usage or configuration,
 * 3 the data directory is in use by another process.
 */

interface Offered {
  plugin: ResolvedPlugin;
  command: MaintenanceCommand;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The commands of the enabled plugins, found without booting (listing them needs no database). */
async function offeredCommands(config: Readonly<KernelConfig>): Promise<Map<string, Offered>> {
  const offered = new Map<string, Offered>();
  for (const ref of config.plugins) {
    const plugin = await resolvePlugin(ref, config.settings);
    for (const [name, command] of Object.entries(plugin.definition.commands ?? {}))
      offered.set(name, { plugin, command });
  }
  return offered;
}

function usage(offered: Map<string, Offered>): string {
  const lines = [
    'usage: npm run admin -- <command> [arguments]   (or: node kernel/admin.mjs <command> [arguments])',
    '',
    'commands:',
  ];
  for (const [name, { command }] of [...offered].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`  ${name} ${command.usage}`, `      ${command.summary}`);
  }
  if (offered.size === 0) lines.push('  (none: no enabled plugin offers a command)');
  return `${lines.join('\n')}\n`;
}

function describe(err: unknown): string {
  if (err instanceof ApiError) {
    const details = (err.details ?? []).map((d) => `${d.in} ${d.pointer}: ${d.message}`);
    return [`${err.code}: ${err.expose ? err.message : 'internal error (see the log above)'}`, ...details].join('; ');
  }
  return err instanceof Error ? err.message : String(err);
}

/** Runs the command line `argv` (without node and the script); resolves with the exit code. */
async function runAdmin(argv: readonly string[], env: Env): Promise<number> {
  const [name, ...args] = argv;
  let config: Readonly<KernelConfig>;
  try {
    // Logs go to stderr at warn unless asked otherwise: stdout is the command's own result.
    config = loadConfig({ env, overrides: { log: { level: env.RUNTIME_LOG_LEVEL ?? 'warn' } } });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const offered = await offeredCommands(config);
  if (name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(usage(offered));
    return 0;
  }
  const chosen = name === undefined ? undefined : offered.get(name);
  if (!chosen) {
    process.stderr.write(`${name === undefined ? 'no command given' : `unknown command "${name}"`}\n${usage(offered)}`);
    return 2;
  }

  const logger = createLogger(config, pino.destination({ dest: 2, sync: true }));
  let kernel;
  try {
    kernel = await createKernel({ config, logger, mode: 'maintenance' });
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      process.stderr.write(`${name}: ${err.message}\n`);
      return 3;
    }
    throw err;
  }
  try {
    await chosen.command.run({
      args,
      services: kernel.services,
      // As setup receives them: checked against the manifest's schema, defaults filled in (kernel/boot/prepare.ts).
      settings: pluginSettings(
        chosen.plugin.definition.id,
        chosen.plugin.loaded.manifest.settings,
        chosen.plugin.settings,
        chosen.plugin.origin === 'builtin',
      ),
      env,
      print: (line) => process.stdout.write(`${line}\n`),
    });
    return 0;
  } catch (err) {
    if (!(err instanceof CommandError) && !(err instanceof ApiError && err.expose))
      logger.error({ err }, `${name} failed`);
    process.stderr.write(`${name}: ${describe(err)}\n`);
    if (err instanceof CommandError && err.usage) {
      process.stderr.write(`usage: npm run admin -- ${name} ${chosen.command.usage}\n`);
      return 2;
    }
    return 1;
  } finally {
    await kernel.close();
  }
}

runAdmin(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`admin command failed: ${describe(err)}\n`);
    process.exit(1);
  },
);
