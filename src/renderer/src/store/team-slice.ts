import type { StateCreator } from 'zustand';
import type { TeamGroup, TeamMemberPage, TeamUsage } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { StudioState } from './index';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The Team screen (organization managers only): whether the person is one (the core asks the
 * platform's directory), the group tree, the members of the chosen group, and the usage table.
 */
export interface TeamSlice {
  /** null until the core answered; false for everyone who is not an organization manager. */
  teamManager: boolean | null;
  teamGroups: TeamGroup[];
  /** The group whose members are listed (with its descendants); null: the whole organization. */
  teamGroupId: string | null;
  teamSearch: string;
  teamMembers: TeamMemberPage | null;
  teamUsage: TeamUsage | null;
  teamError: string | null;
  teamLoading: boolean;
  loadTeamAccess(): Promise<void>;
  /** Loads the tree, the members and the usage (only for a manager). */
  loadTeam(): Promise<void>;
  selectTeamGroup(groupId: string | null): Promise<void>;
  searchTeamMembers(search: string): Promise<void>;
}

export const createTeamSlice: StateCreator<StudioState, [], [], TeamSlice> = (set, get) => {
  const loadMembers = async () => {
    const { teamGroupId, teamSearch } = get();
    const search = teamSearch.trim();
    const members = await bridge.invoke('team.members', {
      ...(teamGroupId ? { groupId: teamGroupId, includeDescendants: true } : {}),
      ...(search ? { search } : {}),
      page: 1,
    });
    set({ teamMembers: members });
  };
  const guarded = async (work: () => Promise<void>) => {
    if (get().teamManager !== true) return;
    set({ teamLoading: true, teamError: null });
    try {
      await work();
    } catch (error) {
      set({ teamError: message(error) });
    } finally {
      set({ teamLoading: false });
    }
  };
  return {
    teamManager: null,
    teamGroups: [],
    teamGroupId: null,
    teamSearch: '',
    teamMembers: null,
    teamUsage: null,
    teamError: null,
    teamLoading: false,
    async loadTeamAccess() {
      try {
        const { manager } = await bridge.invoke('team.access', {});
        set({ teamManager: manager });
      } catch {
        set({ teamManager: false }); // not known to be a manager: Team stays hidden
      }
      if (!get().teamManager && get().section === 'team') get().setSection('create');
    },
    loadTeam: () =>
      guarded(async () => {
        const [{ groups }, usage] = await Promise.all([
          bridge.invoke('team.groups', {}),
          bridge.invoke('team.usage', {}),
        ]);
        set({ teamGroups: groups, teamUsage: usage });
        await loadMembers();
      }),
    selectTeamGroup: (groupId) =>
      guarded(async () => {
        set({ teamGroupId: groupId });
        await loadMembers();
      }),
    searchTeamMembers: (search) =>
      guarded(async () => {
        set({ teamSearch: search });
        await loadMembers();
      }),
  };
};
