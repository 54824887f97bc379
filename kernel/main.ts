import { loadConfig, ConfigError } from './config/load.js';
import { createKernel } from './boot.js';

/** Process entry: load config, boot, serve, and drain on SIGTERM/SIGINT. */
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
  const kernel = await createKernel({ config });
  const { url } = await kernel.listen();
  kernel.logger.info({ url, profile: config.profile, plugins: kernel.catalog.manifests.map((m) => m.id) }, 'serving');
  let stopping = false;
  const stop = (signal: string): void => {
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
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`runtime kernel failed to start: ${message}\n`);
  process.exit(1);
});
