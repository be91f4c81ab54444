/**
 * The Team screen's slice: shown and loaded only for an organization manager; every bridge call of
 * the screen is one of its actions.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fake } from './fake-bridge.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));

// a browser module (typed by tsconfig.web.json), loaded by a path the node typecheck does not follow
interface State {
  [name: string]: unknown;
  section: string;
  teamManager: boolean | null;
  teamMembers: { total: number } | null;
  teamUsage: unknown;
  teamError: string | null;
  setSection(section: string): void;
  loadTeamAccess(): Promise<void>;
  loadTeam(): Promise<void>;
  selectTeamGroup(groupId: string | null): Promise<void>;
  searchTeamMembers(search: string): Promise<void>;
}
interface Store {
  getState(): State;
  setState(state: Record<string, unknown>, replace?: boolean): void;
}
const storeModule = '../../../src/renderer/src/store/index.js';
const { useStudio, visibleSections } = (await import(storeModule)) as {
  useStudio: Store;
  visibleSections(manager: boolean | null): string[];
};
const initial = useStudio.getState();
const methods = () => fake.calls.map((c) => c.method);

const usage = {
  rows: [],
  totals: {
    ledgerSettledCredits: '7.50',
    reservedCredits: '0.00',
    releasedCredits: '0.00',
    failedCredits: '0.00',
    pendingCredits: '0.00',
  },
  requestCount: 1,
  amountScale: 2,
  asOf: '2026-11-23T10:00:00.000Z',
  freshness: 'realtime',
};

beforeEach(() => {
  useStudio.setState(initial, true);
  fake.reset();
});

describe('Team in the navigation', () => {
  it('is listed only for an organization manager', () => {
    expect(visibleSections(null)).not.toContain('team');
    expect(visibleSections(false)).not.toContain('team');
    expect(visibleSections(true)).toContain('team');
    expect(visibleSections(false)).toEqual(['create', 'queue', 'library', 'playground', 'settings']);
  });

  it('a member never sees Team and the screen asks nothing of the core', async () => {
    fake.answers.set('team.access', () => ({ manager: false }));
    useStudio.getState().setSection('team'); // e.g. a stale section
    await useStudio.getState().loadTeamAccess();
    expect(useStudio.getState().teamManager).toBe(false);
    expect(useStudio.getState().section).toBe('create');
    await useStudio.getState().loadTeam();
    await useStudio.getState().searchTeamMembers('ada');
    expect(methods()).toEqual(['team.access']);
  });

  it('an access check that fails keeps Team hidden', async () => {
    fake.answers.set('team.access', () => {
      throw new Error('offline');
    });
    await useStudio.getState().loadTeamAccess();
    expect(useStudio.getState().teamManager).toBe(false);
  });
});

describe('Team for a manager', () => {
  beforeEach(async () => {
    fake.answers.set('team.access', () => ({ manager: true }));
    fake.answers.set('team.groups', () => ({
      groups: [{ groupId: 'g1', name: 'Org', depth: 0, directMemberCount: 1, branchMemberCount: 3 }],
    }));
    fake.answers.set('team.usage', () => usage);
    fake.answers.set('team.members', (p) => ({ items: [], page: 1, pageSize: 50, total: p.search ? 1 : 3 }));
    await useStudio.getState().loadTeamAccess();
  });

  it('loads the tree, the usage and the members of the whole organization', async () => {
    await useStudio.getState().loadTeam();
    expect(methods()).toEqual(['team.access', 'team.groups', 'team.usage', 'team.members']);
    expect(fake.calls.at(-1)!.params).toEqual({ page: 1 });
    expect(useStudio.getState().teamUsage).toEqual(usage);
    expect(useStudio.getState().teamMembers).toMatchObject({ total: 3 });
  });

  it('lists the members of a group with its descendants, and searches within it', async () => {
    await useStudio.getState().selectTeamGroup('g1');
    expect(fake.calls.at(-1)!.params).toEqual({ groupId: 'g1', includeDescendants: true, page: 1 });
    await useStudio.getState().searchTeamMembers('  ada ');
    expect(fake.calls.at(-1)!.params).toEqual({
      groupId: 'g1',
      includeDescendants: true,
      search: 'ada',
      page: 1,
    });
    expect(useStudio.getState().teamMembers).toMatchObject({ total: 1 });
  });

  it('shows the core’s refusal as an error and keeps what was shown', async () => {
    await useStudio.getState().loadTeam();
    fake.answers.set('team.members', () => {
      throw new Error('Team is for organization managers');
    });
    await useStudio.getState().searchTeamMembers('x');
    expect(useStudio.getState().teamError).toContain('organization managers');
    expect(useStudio.getState().teamMembers).toMatchObject({ total: 3 });
  });
});
