import { loadConfig } from '../../kernel/config/load.js';
import { createKernel } from '../../kernel/boot.js';

/** The real kernel, booted from the bench profile settings passed in BENCH_OVERRIDES. */
const overrides = JSON.parse(process.env.BENCH_OVERRIDES ?? '{}') as Record<string, unknown>;
const config = loadConfig({ profile: 'test', env: { ...process.env, PORT: '0' }, overrides });
const kernel = await createKernel({ config });
const { url } = await kernel.listen();
process.stdout.write(`${JSON.stringify({ url })}\n`);
process.on('SIGTERM', () => {
  kernel.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
