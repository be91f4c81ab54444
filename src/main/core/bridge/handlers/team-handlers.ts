import type { teamMethods } from '../../../../shared/bridge/domains/team.js';
import { AppError } from '../../errors.js';
import type { Project, ProjectsFeature } from '../../projects/projects-feature.js';
import type { GroupNode } from '../../team/organization-directory.js';
import type { TeamFeature } from '../../team/team-feature.js';
import type { DomainHandlers } from './handler-context.js';

export interface TeamHandlerFeatures {
  readonly projects: ProjectsFeature;
  /** The Team feature of this person's RuntimeSession; absent off the platform (nobody is a manager there). */
  readonly team: TeamFeature | undefined;
  /**
   * Off the platform: the Team feature of the active profile when it is a paired debug session
   * (section D's directory reads), asked at each call since the active profile may change.
   */
  readonly teamFor?: () => Promise<TeamFeature | undefined>;
}

const projectView = (p: Project) => ({ id: p.id, name: p.name, archived: p.archivedAt !== undefined });

/** The group tree in tree order, a parent before its children. */
function flatten(
  nodes: GroupNode[],
): { groupId: string; name: string; depth: number; directMemberCount: number; branchMemberCount: number }[] {
  return nodes.flatMap((n) => [
    {
      groupId: n.groupId,
      name: n.name,
      depth: n.depth,
      directMemberCount: n.directMemberCount,
      branchMemberCount: n.branchMemberCount,
    },
    ...flatten(n.children),
  ]);
}

const nullable = <T>(value: T | undefined): T | null => value ?? null;

/** Projects and the Team screen, each a mapping onto its feature. */
export function createTeamHandlers(features: TeamHandlerFeatures): DomainHandlers<typeof teamMethods> {
  const { projects } = features;
  const current = async (): Promise<TeamFeature | undefined> => features.team ?? (await features.teamFor?.());
  const team = async (): Promise<TeamFeature> => {
    const found = await current();
    if (!found)
      throw new AppError('team.not_manager', 'Team is for organization managers of a platform deployment.');
    return found;
  };
  return {
    'projects.list': ({ includeArchived, draftId }) => ({
      projects: projects.list({ includeArchived }).map(projectView),
      lastProjectId: nullable(projects.projectForNewDraft()),
      draftProjectId: draftId === undefined ? null : nullable(projects.draftProject(draftId)),
    }),
    'projects.create': ({ name }) => projectView(projects.create(name)),
    'projects.rename': ({ id, name }) => projectView(projects.rename(id, name)),
    'projects.archive': ({ id }) => projectView(projects.archive(id)),
    'projects.fileDraft': ({ draftId, projectId }) => {
      projects.fileDraft(draftId, projectId ?? undefined);
      return { draftId, projectId: nullable(projects.draftProject(draftId)) };
    },
    'team.access': async () => {
      const found = await current().catch(() => undefined);
      return found ? found.access() : { manager: false };
    },
    'team.groups': async () => ({ groups: flatten(await (await team()).groups()) }),
    'team.members': async (request) => {
      const page = await (await team()).members(request);
      return {
        ...page,
        items: page.items.map((m) => ({
          membershipId: m.membershipId,
          accountId: m.accountId,
          displayName: m.displayName,
          groupPath: m.groupPath,
          organizationRoles: m.organizationRoles,
          appRoles: m.appRoles,
        })),
      };
    },
    'team.usage': async ({ projectIds }) => {
      const usage = await (await team()).usage(projectIds);
      return {
        ...usage,
        rows: usage.rows.map((r) => ({
          ...r,
          projectName: nullable(r.projectName),
          accountId: nullable(r.accountId),
          memberName: nullable(r.memberName),
          serviceKind: nullable(r.serviceKind),
          day: nullable(r.day),
        })),
      };
    },
  };
}
