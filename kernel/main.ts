import { loadConfig, ConfigError } from './config/load.js';
import { createKernel } from './boot.js';
import { DataDirInUseError } from './db/data-dir-lock.js';

/**
 * Process entry: load config, boot, serve, and drain on SIGTERM/SIGINT. Exit codes: 0 drained,
 * 1 failed to start or to stop, 2 invalid configuration, 3 data directory in use by another process.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  // Listening for the signals before the boot: a signal that arrives while the database is being
  // opened or migrated stops the process once the boot is done, never halfway through it.
  let stopSignal: string | undefined;
  let stop = (signal: string): void => {
    stopSignal ??= signal;
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const kernel = await createKernel({ config });
  let stopping = false;
  stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    kernel.logger.info({ signal }, 'draining');
    kernel.close().then(
      () => process.exit(0),
      (err: unknown) => {
        kernel.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  if (stopSignal) return stop(stopSignal);
  const { url } = await kernel.listen();
  kernel.logger.info(
    {
      url,
      pid: process.pid,
      profile: config.profile,
      plugins: kernel.catalog.manifests.map((m) => m.id),
      boot_ms: kernel.bootTimings,
      boot_cpu_ms: kernel.bootCpuTimings,
    },
    'serving',
  );
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    // A plugin's settings, checked against its schema once the plugins are known.
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  if (err instanceof DataDirInUseError) {
    process.stderr.write(`runtime kernel refused to start: ${err.message}\n`);
    process.exit(3);
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`runtime kernel failed to start: ${message}\n`);
  process.exit(1);
});
