import { performance } from 'node:perf_hooks';
import type { WorkflowStream, WorkflowStreams } from '../contract.js';
import type { Definition } from '../definition.js';
import { WorkflowStore } from '../store.js';
import { WorkerStore } from '../worker-store.js';
import type { RunHealth } from './health.js';
import type { WorkerOptions } from './options.js';
import { buildPipeline, stopPipeline, type Pipeline } from './pipeline.js';

/** How long a built pipeline is reused before it is built again (picks up changed components). */
const PIPELINE_TTL_MS = 30_000;
/** How long a deployed revision's input stream is trusted before it is looked up again (a stream re-created under its id). */
const DEPLOYMENT_TTL_MS = 5000;

/** A running workflow's deployed revision, with the input stream it reads. */
export interface Deployment {
  at: number;
  revision: number;
  definition: Definition;
  input: WorkflowStream;
}

/**
 * What each workflow runs, cached: the deployed revision and its built pipeline. Building a
 * pipeline (sandboxes, broker connections) is far too dear to do per batch, so both are kept for
 * a while and only the workflow's row is read every batch (a deploy or pause shows at once).
 */
export class Deployments {
  private readonly pipelines = new Map<string, { pipeline: Promise<Pipeline>; at: number }>();
  private readonly deployments = new Map<string, Deployment>();

  constructor(
    private readonly o: WorkerOptions,
    private readonly streams: () => WorkflowStreams,
    private readonly health: RunHealth,
  ) {}

  /** The runnable form of a revision, built once and reused for a while. */
  async pipeline(tenantId: string, workflowId: string, revision: number, definition: Definition): Promise<Pipeline> {
    const key = `${tenantId}\u001f${workflowId}\u001f${revision}`;
    const cached = this.pipelines.get(key);
    const now = performance.now();
    if (cached && now - cached.at < PIPELINE_TTL_MS) return cached.pipeline;
    const pipeline = buildPipeline(this.o.db, this.o.resolvers, tenantId, revision, definition);
    this.pipelines.set(key, { pipeline, at: now });
    pipeline.catch(() => this.pipelines.delete(key));
    if (cached) void cached.pipeline.then(stopPipeline, () => undefined);
    return pipeline;
  }

  /** Stops every pipeline built (their sandboxes and connections). */
  async stop(): Promise<void> {
    for (const { pipeline } of this.pipelines.values()) await pipeline.then(stopPipeline, () => undefined);
    this.pipelines.clear();
  }

  /**
   * The deployed revision of a running workflow, or null when it is not running. The row is read
   * before every batch (a deploy switches at the next batch boundary); the revision's definition
   * and the input stream are kept while they stay the same.
   */
  async deployment(tenantId: string, workflowId: string): Promise<Deployment | null> {
    const id = `${tenantId}\u001f${workflowId}`;
    const { db } = this.o;
    const row = await new WorkerStore(db).deployment(tenantId, workflowId);
    this.health.seen(tenantId, workflowId, row?.last_error);
    if (row?.state !== 'running' || row.deployed_revision === null || row.input_stream === null) return null;
    const cached = this.deployments.get(id);
    const now = performance.now();
    if (
      cached &&
      cached.revision === row.deployed_revision &&
      cached.input.id === row.input_stream &&
      now - cached.at < DEPLOYMENT_TTL_MS
    )
      return cached;
    const definition = await new WorkflowStore(db).revision(tenantId, workflowId, row.deployed_revision);
    const input = await this.streams().stream(db, tenantId, row.input_stream);
    if (!definition || !input) return null;
    const found = { at: now, revision: row.deployed_revision, definition, input };
    this.deployments.set(id, found);
    return found;
  }
}
