import { AppError } from '../errors.js';
import { ApiError } from '../api-clients/api-errors.js';
import type { GroupNode, MemberPageView, MembersQuery, MembersRequest } from './organization-directory.js';
import { groupTree, memberPage, membersQuery, MEMBERS_PAGE_SIZE } from './organization-directory.js';
import type { UsageRequestBody, UsageRow, UsageTable } from './resource-usage.js';
import { mergeUsage, usageRequests } from './resource-usage.js';

/** The session service's directory calls, as this person's RuntimeSession (lane runtime-jobs' client). */
export interface OrganizationDirectory {
  listGroups(): Promise<unknown>;
  listMembers(query: MembersQuery): Promise<unknown>;
}

/** The runtime's `POST /resource-usage:aggregate`, as this person's RuntimeSession. */
export interface ResourceUsageSource {
  aggregateUsage(body: UsageRequestBody): Promise<unknown>;
}

/** The RuntimeSession's subject, as far as Team needs it. */
export interface TeamSubject {
  /** Present only in an organization context (spec: omitted otherwise). */
  readonly organizationId?: string;
}

/**
 * The projects whose usage the Team screen shows: those filed by the people of this organization
 * (each person's projects live in their own workspace; the backend's composition root lists them).
 */
export interface OrganizationProjects {
  list(): Promise<readonly { id: string; name: string }[]>;
}

export interface TeamDeps {
  readonly subject: TeamSubject;
  readonly directory: OrganizationDirectory;
  readonly usage: ResourceUsageSource;
  readonly projects: OrganizationProjects;
}

export interface TeamAccess {
  /** True only when the directory answered this session as an organization manager's. */
  readonly manager: boolean;
}

export interface UsageView extends Omit<UsageTable, 'rows'> {
  readonly rows: (UsageRow & { projectName: string | undefined; memberName: string | undefined })[];
}

/** Pages of members read to name the accounts of the usage table (50 each: at most 2,000 people). */
const MEMBER_NAME_PAGES = 40;

const NOT_MANAGER =
  'Team is for organization managers: the platform did not open the organization directory to this session.';

const isRefused = (error: unknown) => error instanceof ApiError && error.status === 403;

/**
 * The Team screen's data, for organization managers only: the group tree and members from the
 * session service's directory, and the resource usage of the organization's projects per project,
 * member, service kind and day. Whether the person is a manager is decided by the directory itself
 * (a session without an organization is not asked; a 403 is a no), once per session: the session
 * is an immutable snapshot.
 */
export class TeamFeature {
  private managerAnswer: Promise<boolean> | undefined;

  constructor(private readonly deps: TeamDeps) {}

  async access(): Promise<TeamAccess> {
    return { manager: await this.isManager() };
  }

  async groups(): Promise<GroupNode[]> {
    await this.requireManager();
    return groupTree(await this.refusedAsNotManager(() => this.deps.directory.listGroups()));
  }

  async members(request: MembersRequest = {}): Promise<MemberPageView> {
    const query = membersQuery(request);
    await this.requireManager();
    return memberPage(await this.refusedAsNotManager(() => this.deps.directory.listMembers(query)));
  }

  /** Usage of the organization's projects (or of `projectIds`), in calls of at most 200 ids. */
  async usage(projectIds?: readonly string[]): Promise<UsageView> {
    await this.requireManager();
    const known = await this.deps.projects.list();
    const ids = projectIds ?? known.map((p) => p.id);
    if (ids.length === 0)
      return {
        ...mergeUsage([{ items: [], amountScale: 0, asOf: new Date().toISOString(), freshness: 'none' }]),
        rows: [],
      };
    const answers: unknown[] = [];
    for (const body of usageRequests(ids))
      answers.push(await this.refusedAsNotManager(() => this.deps.usage.aggregateUsage(body)));
    const table = mergeUsage(answers);
    const projectNames = new Map(known.map((p) => [p.id, p.name]));
    const memberNames = await this.memberNames();
    return {
      ...table,
      rows: table.rows.map((row) => ({
        ...row,
        projectName: projectNames.get(row.projectId),
        memberName: row.accountId === undefined ? undefined : memberNames.get(row.accountId),
      })),
    };
  }

  /** The organization's members' names by account (managers only): at most 2,000 people. */
  async memberNames(): Promise<Map<string, string>> {
    await this.requireManager();
    const names = new Map<string, string>();
    for (let page = 1; page <= MEMBER_NAME_PAGES; page++) {
      const batch = memberPage(
        await this.refusedAsNotManager(() =>
          this.deps.directory.listMembers({ page, pageSize: MEMBERS_PAGE_SIZE }),
        ),
      );
      for (const m of batch.items) names.set(m.accountId, m.displayName);
      if (batch.items.length === 0 || page * MEMBERS_PAGE_SIZE >= batch.total) break;
    }
    return names;
  }

  private isManager(): Promise<boolean> {
    if (!this.deps.subject.organizationId) return Promise.resolve(false);
    this.managerAnswer ??= this.deps.directory.listGroups().then(
      () => true,
      (error: unknown) => {
        this.managerAnswer = undefined; // an outage is asked again; only a refusal is remembered
        if (isRefused(error)) {
          this.managerAnswer = Promise.resolve(false);
          return false;
        }
        throw error;
      },
    );
    return this.managerAnswer;
  }

  /** Refuses (`team.not_manager`) unless the directory answered this session as a manager's. */
  async requireManager(): Promise<void> {
    if (!(await this.isManager())) throw new AppError('team.not_manager', NOT_MANAGER);
  }

  private async refusedAsNotManager<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (isRefused(error)) throw new AppError('team.not_manager', NOT_MANAGER);
      throw error;
    }
  }
}
