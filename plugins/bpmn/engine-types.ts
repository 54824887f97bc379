import type { Sandbox } from '../../sandbox/types.js';
import type { BpmnPublisher } from './contract.js';

/* What an instance's engine takes and answers (instance-engine.ts), on either side of the thread boundary. */

export type Wait =
  | {
      kind: 'task';
      activityId: string;
      executionId: string;
      name: string | null;
      createdAt?: string;
      /** From the model (camunda: / zeebe: attributes), expressions resolved against the variables when the task opened. */
      assignee?: string | null;
      candidateUsers?: string[];
      candidateGroups?: string[];
      dueAt?: string | null;
    }
  | {
      kind: 'message' | 'signal';
      activityId: string;
      executionId: string;
      ref: string;
      name: string;
      correlationKey?: string | null;
    }
  | { kind: 'timer'; activityId: string; executionId: string; dueAt: Date }
  | { kind: 'job'; activityId: string; executionId: string; type: string }
  /** A call activity whose process is another definition: a child instance runs it and answers this execution. */
  | { kind: 'call'; activityId: string; executionId: string; processId: string; version?: number };

export interface HistoryEntry {
  executionId: string;
  activityId: string;
  type: string;
  name: string | null;
  startedAt?: Date;
  endedAt?: Date;
  outcome?: string;
  variables?: Record<string, unknown>;
}

export interface Incident {
  activityId: string | null;
  message: string;
}

export interface Advance {
  state: 'active' | 'completed' | 'incident';
  waits: Wait[];
  history: HistoryEntry[];
  incidents: Incident[];
  variables: Record<string, unknown>;
  /** The engine's saved state, or undefined when the advance failed and the previous state stands. */
  engineState?: unknown;
}

export type Input =
  | { kind: 'start' }
  | { kind: 'resume'; variables?: Record<string, unknown> }
  | { kind: 'signal'; ref: string; executionId?: string; variables?: Record<string, unknown> }
  | {
      kind: 'job';
      executionId: string;
      /** complete: the task ends with `variables` merged; error: a BPMN error with `errorCode` is thrown from it. */
      outcome: 'complete' | 'error';
      variables?: Record<string, unknown>;
      errorCode?: string;
      errorMessage?: string;
    };

export interface EngineDeps {
  sandbox: () => Sandbox | undefined;
  publishers: () => readonly BpmnPublisher[];
  maxSteps: number;
  retries: number;
  log(level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown>): void;
}

export interface InstanceRef {
  tenantId: string;
  id: string;
  businessKey: string | null;
}
