import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BridgeDispatcher } from '../bridge/dispatcher.js';
import { legacySubjectKeyOf, subjectKeyOf } from './runtime-sessions/server-sessions.js';
import type { RuntimeSession } from './runtime-sessions/session-service.js';
import { openJournal, type Journal } from '../journal/index.js';

/** A person's identity fields (tenant, account, user, organization): ids, never a credential. */
export type Subject = RuntimeSession['subject'];

/** The services of one workspace besides its journal: at least the bridge dispatcher. */
export interface WorkspaceCore {
  readonly dispatcher: BridgeDispatcher;
  /** Work of the person runs here (unfinished jobs, a call, an open socket): not closed while idle. */
  busy?(): boolean;
  close?(): Promise<void> | void;
}

/**
 * One person's workspace in one context (an organization, or their personal space) on the platform
 * backend: `<dataDir>/subjects/<subjectKey>/`.
 */
export interface PlatformWorkspace<C extends WorkspaceCore = WorkspaceCore> {
  readonly subjectKey: string;
  readonly subject: Subject;
  readonly dir: string;
  readonly journal: Journal;
  readonly dispatcher: BridgeDispatcher;
  readonly core: C;
}

export type WorkspaceBase = Omit<PlatformWorkspace, 'dispatcher' | 'core'>;

export interface PlatformWorkspacesOptions<C extends WorkspaceCore> {
  dataDir: string;
  /** Builds the services of one workspace (the studio's features over its journal). */
  openCore?: (workspace: WorkspaceBase) => C;
  /** Builds only the bridge dispatcher of one workspace (tests of the host). */
  workspaceDispatcher?: (workspace: WorkspaceBase) => BridgeDispatcher;
  /** The clock of the idle close (tests). */
  now?: () => number;
}

/** Who a workspace belongs to, beside its journal (`subject.json`: ids only, for the backend's own work). */
const SUBJECT_FILE = 'subject.json';
const SUBJECT_KEY = /^[0-9a-f]{32}$/;

function readSubject(dir: string): Subject | undefined {
  try {
    const value = JSON.parse(readFileSync(path.join(dir, SUBJECT_FILE), 'utf8')) as Partial<Subject>;
    if (
      typeof value.tenantId !== 'string' ||
      typeof value.accountId !== 'string' ||
      typeof value.userId !== 'string'
    )
      return undefined;
    return {
      tenantId: value.tenantId,
      accountId: value.accountId,
      userId: value.userId,
      ...(typeof value.organizationId === 'string' ? { organizationId: value.organizationId } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * Subject → workspace. The key is derived from the RuntimeSession's subject only (never from
 * anything the browser sends): tenant, account, user and the context (organization or personal), so one person's requests can only ever reach their own folder.
 * Workspaces are opened lazily, cached, closed after an idle time (`closeIdle`: no use and no
 * work of theirs running) and on shutdown; a closed one opens again on its next use, from its
 * folder. Each folder remembers its subject so the backend can resume everyone's unfinished work
 * at start.
 */
export class PlatformWorkspaces<C extends WorkspaceCore = WorkspaceCore> {
  private readonly open = new Map<string, PlatformWorkspace<C>>();
  /** When each open workspace was last asked for. */
  private readonly lastUsed = new Map<string, number>();
  private readonly closing = new Set<Promise<void>>();
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly options: PlatformWorkspacesOptions<C>) {
    this.now = options.now ?? Date.now;
  }

  private get subjectsDir(): string {
    return path.join(this.options.dataDir, 'subjects');
  }

  workspaceOf(subject: Subject): PlatformWorkspace<C> {
    if (this.closed) throw new Error('The workspaces are closed.');
    const subjectKey = subjectKeyOf(subject);
    this.lastUsed.set(subjectKey, this.now());
    const known = this.open.get(subjectKey);
    if (known) return known;
    const dir = path.join(this.subjectsDir, subjectKey);
    this.adoptLegacy(subject);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!readSubject(dir))
      writeFileSync(path.join(dir, SUBJECT_FILE), JSON.stringify(subject), { mode: 0o600 });
    const journal = openJournal({ path: path.join(dir, 'journal.sqlite') });
    const base: WorkspaceBase = { subjectKey, subject, dir, journal };
    let core: C;
    try {
      if (this.options.openCore) core = this.options.openCore(base);
      else if (this.options.workspaceDispatcher)
        core = { dispatcher: this.options.workspaceDispatcher(base) } as C;
      else throw new Error('PlatformWorkspaces needs openCore or workspaceDispatcher.');
    } catch (error) {
      journal.close();
      throw error;
    }
    const workspace: PlatformWorkspace<C> = { ...base, dispatcher: core.dispatcher, core };
    this.open.set(subjectKey, workspace);
    return workspace;
  }

  /** The workspace of a subject key (the `/objects/` route names one), if that person has one here. */
  workspaceByKey(subjectKey: string): PlatformWorkspace<C> | undefined {
    if (!SUBJECT_KEY.test(subjectKey)) return undefined;
    const known = this.open.get(subjectKey);
    if (known) return known;
    const subject = readSubject(path.join(this.subjectsDir, subjectKey));
    return subject && subjectKeyOf(subject) === subjectKey ? this.workspaceOf(subject) : undefined;
  }

  /** Every person who ever had a workspace here (read from their folders' `subject.json`). */
  knownSubjects(): Subject[] {
    let names: string[];
    try {
      names = readdirSync(this.subjectsDir);
    } catch {
      return [];
    }
    const out: Subject[] = [];
    const seen = new Set<string>();
    for (const name of names) {
      if (!SUBJECT_KEY.test(name)) continue;
      const subject = readSubject(path.join(this.subjectsDir, name));
      if (!subject) continue;
      const key = subjectKeyOf(subject);
      if (key !== name && !(legacySubjectKeyOf(subject) === name && this.adoptLegacy(subject))) continue;
      if (!seen.has(key)) out.push(subject);
      seen.add(key);
    }
    return out;
  }

  /** The workspaces' subjects of one organization: its id counts within its tenant only. */
  membersOf(tenantId: string, organizationId: string): Subject[] {
    return this.knownSubjects().filter(
      (subject) => subject.tenantId === tenantId && subject.organizationId === organizationId,
    );
  }

  /**
   * Workspaces were once keyed by tenant, account and user only (one journal for every context).
   * Such a folder belongs to the context its `subject.json` last named: that context's key is made
   * a link to it (the journal's stored paths stay valid); other contexts start their own. True
   * when the context's folder exists (adopted now or before).
   */
  private adoptLegacy(subject: Subject): boolean {
    const dir = path.join(this.subjectsDir, subjectKeyOf(subject));
    if (existsSync(dir)) return true;
    const legacyKey = legacySubjectKeyOf(subject);
    const legacy = readSubject(path.join(this.subjectsDir, legacyKey));
    if (!legacy || legacy.organizationId !== subject.organizationId) return false;
    try {
      symlinkSync(legacyKey, dir, 'dir');
    } catch {
      return existsSync(dir);
    }
    return true;
  }

  /** The workspaces open now (the backend's housekeeping visits them). */
  openWorkspaces(): PlatformWorkspace<C>[] {
    return [...this.open.values()];
  }

  /**
   * Closes the workspaces nobody asked for in `idleMs` and whose core has no work running (a
   * workspace with unfinished jobs stays open: its jobs go on in the background). Their next use
   * opens them again from their folder. Returns the keys closed.
   */
  async closeIdle(idleMs: number): Promise<string[]> {
    const now = this.now();
    const idle = [...this.open.values()].filter(
      (workspace) =>
        now - (this.lastUsed.get(workspace.subjectKey) ?? 0) >= idleMs && !workspace.core.busy?.(),
    );
    for (const workspace of idle) {
      this.open.delete(workspace.subjectKey);
      this.lastUsed.delete(workspace.subjectKey);
    }
    await Promise.all(idle.map((workspace) => this.track(this.closeOne(workspace))));
    return idle.map((workspace) => workspace.subjectKey);
  }

  private track(closing: Promise<void>): Promise<void> {
    this.closing.add(closing);
    return closing.finally(() => this.closing.delete(closing));
  }

  private async closeOne(workspace: PlatformWorkspace<C>): Promise<void> {
    try {
      await workspace.core.close?.();
    } finally {
      workspace.journal.close();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const workspaces = [...this.open.values()];
    this.open.clear();
    this.lastUsed.clear();
    await Promise.allSettled([...this.closing]);
    for (const workspace of workspaces) await this.closeOne(workspace);
  }
}
