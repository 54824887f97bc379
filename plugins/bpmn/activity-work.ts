import type { Knex } from 'knex';
import type { DefinitionMeta } from './definitions.js';
import { isPlainObject, userVariables } from './engine-library.js';
import type { RegisteredScript } from './engine-scripts.js';
import type { EngineDeps, Incident, Input, InstanceRef, Wait } from './engine-types.js';

/** What the work of an instance's activities reads of its engine (instance-engine.ts). */
export interface WorkHost {
  readonly deps: EngineDeps;
  readonly meta: DefinitionMeta;
  readonly instance: InstanceRef;
  /** The engine's open waits: a job's task adds its wait here, an answered job removes it. */
  readonly waits: Map<string, Wait>;
  /** The running process's variables (see InstanceEngine.variables). */
  variables(): Record<string, unknown>;
  /** The advance's transaction (undefined in an engine thread: no service tasks there). */
  transaction(): Knex.Transaction | undefined;
}

type Callback = (err: Error | null, output?: unknown) => void;

/**
 * The work an instance's activities wait for, outside the engine: script tasks and conditions in
 * the sandbox, service tasks through a publisher or as a job for a worker, and the retries and
 * incidents of that work. The engine settles once nothing is in flight.
 */
export class ActivityWork {
  /** Scripts, services and job answers started and not yet called back. */
  inflight = 0;
  /** The incidents of the current advance. */
  incidents: Incident[] = [];
  /** A job's outcome, handed to its task when the resumed engine runs it again (see bindService). */
  jobOutcome: Extract<Input, { kind: 'job' }> | undefined;
  /** The service tasks that wait for their job, by execution: a kept engine answers them directly. */
  readonly pendingJobs = new Map<string, Callback>();

  constructor(private readonly host: WorkHost) {}

  runScript(
    activityId: string,
    script: RegisteredScript,
    scope: { environment: { variables: Record<string, unknown> } },
    callback: (err: Error | null, result?: unknown) => void,
  ): void {
    const isCondition = script.type === 'bpmn:SequenceFlow';
    this.track(
      activityId,
      isCondition,
      async () => {
        if (!/^(javascript|js)$/i.test(script.language))
          throw new Error(`Script language "${script.language}" is not supported (JavaScript only).`);
        const sandbox = this.host.deps.sandbox();
        if (!sandbox) throw new Error('No sandbox is available to run scripts.');
        const outcome = await sandbox.run({
          tenantId: this.host.instance.tenantId,
          files: { 'main.js': script.body },
          input: { body: null, headers: {}, key: this.host.instance.businessKey },
          globals: { variables: userVariables(scope.environment.variables) },
        });
        if (!outcome.ok)
          throw new Error(
            `Script failed: ${outcome.error?.message ?? 'unknown error'}${outcome.error?.line ? ` (line ${outcome.error.line})` : ''}`,
          );
        if (isCondition) return Boolean(outcome.result);
        if (isPlainObject(outcome.result)) Object.assign(scope.environment.variables, outcome.result);
        return outcome.result;
      },
      callback,
    );
  }

  /**
   * A service, send or business-rule task: a job for a worker when the model names a job type
   * (meta.jobs) or when no publisher serves its implementation (`stream:<id>` is served by the
   * streams plugin); else the publisher does its work. A job's task never calls back in the advance
   * that reaches it: the instance waits; the job's completion resumes the saved state, whose task
   * runs again and finds the outcome (jobOutcome).
   */
  bindService(activity: { type: string; id: string; behaviour: Record<string, unknown> }): undefined {
    if (!/^bpmn:(ServiceTask|SendTask|BusinessRuleTask)$/.test(activity.type)) return undefined;
    const implementation = String(activity.behaviour.implementation ?? '');
    const jobType = this.host.meta.jobs?.[activity.id];
    const self = this;
    activity.behaviour.Service = function BoundService() {
      return {
        execute(
          message: { content: { executionId: string } },
          callback: (err: Error | null, output?: unknown) => void,
        ) {
          const [scheme, ...rest] = implementation.split(':');
          const target = rest.join(':');
          const publisher =
            jobType === undefined && target ? self.host.deps.publishers().find((p) => p.scheme === scheme) : undefined;
          if (!publisher) {
            self.runJob(activity.id, jobType ?? activity.id, message.content.executionId, callback);
            return;
          }
          self.track(
            activity.id,
            false,
            async () => {
              const trx = self.host.transaction();
              if (!trx) throw new Error('A service task ran outside an advance.');
              const variables = userVariables(self.host.variables());
              return publisher.publish(trx, {
                tenantId: self.host.instance.tenantId,
                target,
                key: self.host.instance.businessKey ?? self.host.instance.id,
                value: variables,
                headers: { 'x-bpmn-instance': self.host.instance.id, 'x-bpmn-activity': activity.id },
              });
            },
            (err, result) => callback(err, result),
          );
        },
      };
    };
    return undefined;
  }

  private runJob(
    activityId: string,
    type: string,
    executionId: string,
    callback: (err: Error | null, output?: unknown) => void,
  ): void {
    const outcome = this.jobOutcome;
    if (outcome?.executionId !== executionId) {
      this.host.waits.set(executionId, { kind: 'job', activityId, executionId, type });
      this.pendingJobs.set(executionId, callback);
      return;
    }
    this.jobOutcome = undefined;
    this.answerJob(outcome, callback);
  }

  /** Hands a job's outcome to its waiting task. */
  answerJob(outcome: Extract<Input, { kind: 'job' }>, callback: (err: Error | null, output?: unknown) => void): void {
    const executionId = outcome.executionId;
    this.pendingJobs.delete(executionId);
    this.host.waits.delete(executionId);
    // Answered once the whole saved state resumed: a boundary event resumed after its task would miss the task's end.
    this.inflight += 1;
    setImmediate(() => {
      this.inflight -= 1;
      if (outcome.variables) Object.assign(this.host.variables(), outcome.variables);
      if (outcome.outcome === 'error') {
        callback(
          Object.assign(new Error(outcome.errorMessage ?? `BPMN error ${outcome.errorCode}`), {
            code: outcome.errorCode,
          }),
        );
        return;
      }
      callback(null, outcome.variables ?? {});
    });
  }

  /**
   * Runs async work the engine waits for, retrying; a failure that nothing catches becomes an
   * incident and leaves the activity waiting (resolving the incident resumes it, which runs it again).
   */
  private track(
    activityId: string,
    isCondition: boolean,
    work: () => Promise<unknown>,
    callback: (err: Error | null, result?: unknown) => void,
  ): void {
    this.inflight += 1;
    void (async () => {
      let lastError: Error | undefined;
      for (let attempt = 0; attempt <= this.host.deps.retries; attempt++) {
        try {
          const result = await work();
          this.inflight -= 1;
          callback(null, result);
          return;
        } catch (err) {
          lastError = err as Error;
          this.host.deps.log(
            'warn',
            `Activity ${activityId} failed (attempt ${attempt + 1} of ${this.host.deps.retries + 1}): ${lastError.message}`,
            { instance: this.host.instance.id, activity: activityId },
          );
        }
      }
      this.inflight -= 1;
      if (!isCondition && this.host.meta.error_caught.includes(activityId)) {
        callback(lastError!);
        return;
      }
      this.incidents.push({ activityId, message: lastError!.message });
    })();
  }
}
