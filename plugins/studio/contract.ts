import type { Knex } from 'knex';
import { extensionPoint } from '../../kernel/plugin/api.js';

/**
 * What the studio offers other plugins: the files of a workspace at a revision, for plugins that
 * run a workspace's code outside the studio (a workflow's `script` step). The point is offered by
 * the plugin that reads files (workflows) and the studio contributes its one reader, as the
 * codecs plugin does for `streams.codecs`. A plugin in TypeScript may import this file only.
 */

export interface WorkspaceFiles {
  /** The revision the files are from (the one asked for, or the current one when none was). */
  revision: number;
  /** Contents (text) by relative path. */
  files: Readonly<Record<string, string>>;
}

export interface WorkspaceFileReader {
  /**
   * A tenant's workspace's files at `revision`, or at its current revision when `revision` is
   * absent; undefined when the tenant has no such workspace or the workspace no such revision.
   */
  read(
    db: Knex | Knex.Transaction,
    tenantId: string,
    workspaceId: string,
    revision?: number,
  ): Promise<WorkspaceFiles | undefined>;
}

export const studioWorkspaceFiles = extensionPoint<WorkspaceFileReader>('studio.workspace-files', { single: true });
