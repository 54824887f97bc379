import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Extensions, Jobs, RuntimeLog } from '../../../kernel/plugin/api.js';
import type { Clock } from '../../../kernel/types.js';
import type { DataPlaneStage } from '../../components/contract.js';
import type { WorkflowMetrics } from '../metrics.js';
import type { Resolvers } from '../validate.js';

/** What the worker is built with (the plugin's services and settings). */
export interface WorkerOptions {
  db: Knex;
  extensions: Extensions;
  resolvers: Resolvers;
  jobs: Jobs;
  logs: RuntimeLog;
  metrics: WorkflowMetrics;
  clock: Clock;
  logger: Logger;
  pollMs: number;
  leaseMs: number;
  /** Per-stage timings for /metrics (claim, sandbox, sink, commit). */
  timings?: (stage: DataPlaneStage, seconds: number, messages: number) => void;
}
