import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBridgeDispatcher, type BridgeHandlers } from '../../../src/main/core/bridge/dispatcher.js';
import { createTeamHandlers } from '../../../src/main/core/bridge/handlers/team-handlers.js';
import { ProjectsFeature } from '../../../src/main/core/projects/projects-feature.js';
import { TeamFeature } from '../../../src/main/core/team/team-feature.js';
import { ApiError } from '../../../src/main/core/api-clients/api-errors.js';
import { tempJournal } from '../journal/helpers.js';

let env: ReturnType<typeof tempJournal> | undefined;
afterEach(() => env?.cleanup());

function dispatcherWith(team: TeamFeature | undefined) {
  env = tempJournal();
  const handlers = createTeamHandlers({ projects: new ProjectsFeature(env.journal), team });
  return { journal: env.journal, bridge: createBridgeDispatcher(handlers as unknown as BridgeHandlers) };
}

const refusingTeam = () =>
  new TeamFeature({
    subject: { organizationId: 'org' },
    directory: {
      listGroups: vi.fn(async () => {
        throw new ApiError({
          status: 403,
          apiCode: 'ORGANIZATION_MANAGER_REQUIRED',
          message: 'no',
          retryable: false,
        });
      }),
      listMembers: vi.fn(),
    },
    usage: { aggregateUsage: vi.fn() },
    projects: { list: async () => [] },
  });

describe('projects and team over the bridge', () => {
  it('creates, lists, files a draft and archives projects; bad names get a clear error', async () => {
    const { journal, bridge } = dispatcherWith(undefined);
    const created = await bridge.dispatch('projects.create', { name: 'Launch film' });
    expect(created).toMatchObject({ ok: true, result: { name: 'Launch film', archived: false } });
    const id = (created as { result: { id: string } }).result.id;
    journal.drafts.save('d1', {});
    expect(await bridge.dispatch('projects.fileDraft', { draftId: 'd1', projectId: id })).toEqual({
      ok: true,
      result: { draftId: 'd1', projectId: id },
    });
    expect(await bridge.dispatch('projects.list', { draftId: 'd1' })).toEqual({
      ok: true,
      result: {
        projects: [{ id, name: 'Launch film', archived: false }],
        lastProjectId: id,
        draftProjectId: id,
      },
    });
    const blank = await bridge.dispatch('projects.create', { name: '  ' });
    expect(blank).toMatchObject({ ok: false, error: { code: 'project.invalid_name' } });
    await bridge.dispatch('projects.archive', { id });
    expect(await bridge.dispatch('projects.list', {})).toMatchObject({
      result: { projects: [], lastProjectId: null },
    });
  });

  it('off the platform and for a member, Team says "not a manager" and every Team call is refused', async () => {
    for (const team of [undefined, refusingTeam()]) {
      const { bridge } = dispatcherWith(team);
      expect(await bridge.dispatch('team.access', {})).toEqual({ ok: true, result: { manager: false } });
      for (const [method, params] of [
        ['team.groups', {}],
        ['team.members', { search: 'a' }],
        ['team.usage', {}],
      ] as const)
        expect(await bridge.dispatch(method, params)).toMatchObject({
          ok: false,
          error: { code: 'team.not_manager' },
        });
      env?.cleanup();
      env = undefined;
    }
  });
});
