import type { DebugPairingFeature } from '../debug-pairing/debug-pairing-feature.js';
import type { ProjectsFeature } from '../projects/projects-feature.js';
import { TeamFeature } from '../team/team-feature.js';

/**
 * The Team screen in online debugging (issue 30): when the active profile is a paired debug
 * session whose test account manages an organization, section D's directory reads of that session
 * feed the same TeamFeature the platform host uses. Resource usage is a runtime call the debugging
 * runtime does not serve: its table is empty, marked `freshness: none`. One feature per profile and session (the session is
 * an immutable snapshot), built where the features meet: the composition root.
 */
export class DebugTeam {
  private cached: { key: string; team: Promise<TeamFeature | undefined> } | undefined;

  constructor(
    private readonly pairing: Pick<DebugPairingFeature, 'directoryFor' | 'session'>,
    private readonly projects: Pick<ProjectsFeature, 'list'>,
    private readonly activeProfileId: () => string,
  ) {}

  async forActiveProfile(): Promise<TeamFeature | undefined> {
    const profileId = this.activeProfileId();
    const session = await this.pairing.session(profileId);
    if (!session || session.expired) return undefined;
    const key = `${profileId}:${session.expiresAt}`;
    if (this.cached?.key !== key) {
      const team = this.build(profileId);
      this.cached = { key, team };
      // an outage is asked again at the next call
      team.catch(() => {
        if (this.cached?.key === key) this.cached = undefined;
      });
    }
    return this.cached.team;
  }

  private async build(profileId: string): Promise<TeamFeature | undefined> {
    const found = await this.pairing.directoryFor(profileId);
    if (!found) return undefined;
    return new TeamFeature({
      subject: { organizationId: found.organizationId },
      directory: found.directory,
      // the debugging runtime serves no resource usage: an empty table marked `freshness: none`
      usage: {
        aggregateUsage: async () => ({
          items: [],
          amountScale: 0,
          asOf: new Date().toISOString(),
          freshness: 'none',
        }),
      },
      projects: {
        list: async () =>
          this.projects.list({ includeArchived: true }).map((p) => ({ id: p.id, name: p.name })),
      },
    });
  }
}
