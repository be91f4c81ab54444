import type { ActiveSession } from './runtime-sessions/server-sessions.js';
import type { RuntimeApiClient } from '../api-clients/runtime/runtime-api-client.js';
import { sessionAuth } from '../api-clients/runtime/runtime-auth.js';
import type { SessionServiceClient } from '../api-clients/runtime/session-service-client.js';
import { DisplayNames } from '../team/display-names.js';
import { TeamFeature } from '../team/team-feature.js';

/**
 * Team and the status bar's name for one person on the platform: the organization's directory
 * and usage read with their own RuntimeSession (one Team snapshot per session: a renewed session
 * is a new one), and their name as the directory lists it when their session may read it.
 */
export class PersonTeam {
  private kept: { sessionId: string; team: TeamFeature } | undefined;
  private readonly names = new DisplayNames();

  constructor(
    private readonly d: {
      session(): Promise<ActiveSession>;
      runtime: Pick<RuntimeApiClient, 'aggregateUsage'>;
      directory: Pick<SessionServiceClient, 'listGroups' | 'listMembers'>;
      /** The projects of an organization's people (each person's live in their own workspace). */
      organizationProjects(organization: {
        tenantId: string;
        organizationId: string;
      }): Promise<readonly { id: string; name: string }[]>;
    },
  ) {}

  /** The person's Team (undefined: no organization context, nobody to manage). */
  async team(): Promise<TeamFeature | undefined> {
    const session = await this.d.session();
    const { organizationId, tenantId } = session.subject;
    if (!organizationId) return undefined;
    if (this.kept?.sessionId !== session.sessionId) {
      const { directory, runtime } = this.d;
      const team = new TeamFeature({
        subject: { organizationId },
        directory: {
          listGroups: () => directory.listGroups(session.sessionId),
          listMembers: (query) => directory.listMembers(session.sessionId, query),
        },
        usage: { aggregateUsage: (body) => runtime.aggregateUsage(sessionAuth(session.sessionId), body) },
        projects: { list: () => this.d.organizationProjects({ tenantId, organizationId }) },
      });
      this.kept = { sessionId: session.sessionId, team };
    }
    return this.kept.team;
  }

  /** Who is signed in, for `app.info` (never an id of the session itself). */
  async signedIn() {
    const session = await this.d.session();
    const displayName = await this.names.nameOf(session, {
      listMembers: (query) => this.d.directory.listMembers(session.sessionId, query),
    });
    return {
      userId: session.subject.userId,
      displayName,
      organizationId: session.subject.organizationId ?? null,
      appRoles: [...session.appRoles],
    };
  }
}
