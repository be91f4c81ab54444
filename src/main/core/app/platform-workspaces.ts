import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BridgeDispatcher } from '../bridge/dispatcher.js';
import { subjectKeyOf } from '../features/runtime-sessions/server-sessions.js';
import type { RuntimeSession } from '../features/runtime-sessions/session-service.js';
import { openJournal, type Journal } from '../journal/index.js';

/** One person's workspace on the platform backend: `<dataDir>/subjects/<subjectKey>/`. */
export interface PlatformWorkspace {
  readonly subjectKey: string;
  readonly dir: string;
  readonly journal: Journal;
  readonly dispatcher: BridgeDispatcher;
}

export interface PlatformWorkspacesOptions {
  dataDir: string;
  /** Builds the bridge dispatcher of one workspace (the studio's features over its journal). */
  workspaceDispatcher: (workspace: Omit<PlatformWorkspace, 'dispatcher'>) => BridgeDispatcher;
}

/**
 * Subject → workspace. The key is derived from the RuntimeSession's subject only (never from
 * anything the browser sends), so one person's requests can only ever reach their own folder.
 * Workspaces are opened lazily, cached, and closed on shutdown.
 */
export class PlatformWorkspaces {
  private readonly open = new Map<string, PlatformWorkspace>();
  private closed = false;

  constructor(private readonly options: PlatformWorkspacesOptions) {}

  workspaceOf(subject: RuntimeSession['subject']): PlatformWorkspace {
    if (this.closed) throw new Error('The workspaces are closed.');
    const subjectKey = subjectKeyOf(subject);
    const known = this.open.get(subjectKey);
    if (known) return known;
    const dir = path.join(this.options.dataDir, 'subjects', subjectKey);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const journal = openJournal({ path: path.join(dir, 'journal.sqlite') });
    const base = { subjectKey, dir, journal };
    let dispatcher: BridgeDispatcher;
    try {
      dispatcher = this.options.workspaceDispatcher(base);
    } catch (error) {
      journal.close();
      throw error;
    }
    const workspace = { ...base, dispatcher };
    this.open.set(subjectKey, workspace);
    return workspace;
  }

  close(): void {
    this.closed = true;
    for (const workspace of this.open.values()) workspace.journal.close();
    this.open.clear();
  }
}
