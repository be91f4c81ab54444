/**
 * The fixed fake world of the local platform: two applications that depend on each other
 * (Framewright as deployed on the platform calls the second's boards; the second sends boards to
 * Framewright as sequences), three people and one organization with a group tree. Everything here is stable across runs (stable fake data); the credentials are
 * local-simulation values like the fixed local test token, never real secrets.
 */

export type FixtureUser = 'manager' | 'member' | 'personal';
export const FIXTURE_USERS: readonly FixtureUser[] = ['manager', 'member', 'personal'];

export interface AppDependency {
  calleeAppKey: string;
  apiVersion: string;
  scopes: string[];
}

/** A capability an application opens to callers (what a dependency must match). */
export interface AppCapability {
  apiVersion: string;
  scopes: string[];
  /** Whether the capability is opened for online debugging (debug grants and the relay, section D). */
  onlineDebug?: boolean;
}

export interface FixtureApp {
  /** The developer control plane's id of the application (section E's `{appId}`). */
  appId: string;
  appKey: string;
  appCredential: string;
  appVersionId: string;
  /** `resourceAttribution.resourceType` values the application declares. */
  resourceTypes: string[];
  dependencies: AppDependency[];
  /** Capabilities other applications may call through grants. */
  capabilities: AppCapability[];
  /** Role codes of this application per fixture person (absent: no roles). */
  roles: Partial<Record<string, string[]>>;
  /**
   * Where the simulator serves the application's own business interface (its production
   * target), relative to the simulator's origin; absent: the application has none.
   */
  businessBasePath?: string;
}

/** Framewright's own resource type: a project of the studio. */
export const FRAMEWRIGHT_RESOURCE_TYPE = 'project';

export const FIXTURE_APPS: readonly FixtureApp[] = [
  {
    appId: 'app_sim_framewright_studio',
    appKey: 'framewright-studio',
    appCredential: 'fw-sim-app-credential-framewright-studio',
    appVersionId: 'appver_sim_framewright_studio_1',
    resourceTypes: [FRAMEWRIGHT_RESOURCE_TYPE],
    dependencies: [
      {
        calleeAppKey: 'storyboard-helper',
        apiVersion: '2026-01',
        scopes: ['storyboard.read', 'storyboard.write'],
      },
    ],
    // what other applications call in Framewright (SEQUENCE_CAPABILITY of Framewright's own
    // submission, src/main/core/platform-release/framewright-submission.ts): creating a sequence
    capabilities: [{ apiVersion: '2026-01', scopes: ['sequence.create'], onlineDebug: true }],
    roles: {
      usr_sim_manager: ['studio_admin'],
      usr_sim_member: ['studio_editor'],
      usr_sim_colorist: ['studio_editor'],
      usr_sim_editor2: ['studio_viewer'],
    },
  },
  {
    appId: 'app_sim_storyboard_helper',
    appKey: 'storyboard-helper',
    appCredential: 'fw-sim-app-credential-storyboard-helper',
    appVersionId: 'appver_sim_storyboard_helper_1',
    resourceTypes: ['storyboard.board'],
    // it sends a board to the person's Framewright (its simulator-only send route)
    dependencies: [
      { calleeAppKey: 'framewright-studio', apiVersion: '2026-01', scopes: ['sequence.create'] },
    ],
    capabilities: [
      { apiVersion: '2026-01', scopes: ['storyboard.read', 'storyboard.write'], onlineDebug: true },
    ],
    roles: { usr_sim_manager: ['board_owner'], usr_sim_member: ['board_reader'] },
    businessBasePath: '/apps/storyboard-helper',
  },
];

export interface Subject {
  tenantId: string;
  accountId: string;
  workspaceId: string;
  userId: string;
  organizationId?: string;
  membershipId?: string;
}

export const ORGANIZATION_ID = 'org_sim_northwind';
export const ORGANIZATION_MANAGER_ROLE = 'organization_manager';

export const FIXTURE_SUBJECTS: Record<FixtureUser, Subject> = {
  manager: {
    tenantId: 'tnt_sim_northwind',
    accountId: 'acc_sim_manager',
    workspaceId: 'wsp_sim_northwind',
    userId: 'usr_sim_manager',
    organizationId: ORGANIZATION_ID,
    membershipId: 'mbr_sim_manager',
  },
  member: {
    tenantId: 'tnt_sim_northwind',
    accountId: 'acc_sim_member',
    workspaceId: 'wsp_sim_northwind',
    userId: 'usr_sim_member',
    organizationId: ORGANIZATION_ID,
    membershipId: 'mbr_sim_member',
  },
  personal: {
    tenantId: 'tnt_sim_personal',
    accountId: 'acc_sim_personal',
    workspaceId: 'wsp_sim_personal',
    userId: 'usr_sim_personal',
  },
};

export interface FixtureGroup {
  groupId: string;
  /** Empty string for the root. */
  parentGroupId: string;
  name: string;
}

/** The organization's group tree (four levels deep). */
export const FIXTURE_GROUPS: readonly FixtureGroup[] = [
  { groupId: 'grp_sim_root', parentGroupId: '', name: 'Northwind Pictures' },
  { groupId: 'grp_sim_production', parentGroupId: 'grp_sim_root', name: 'Production' },
  { groupId: 'grp_sim_camera', parentGroupId: 'grp_sim_production', name: 'Camera' },
  { groupId: 'grp_sim_art', parentGroupId: 'grp_sim_production', name: 'Art Department' },
  { groupId: 'grp_sim_post', parentGroupId: 'grp_sim_root', name: 'Post-production' },
  { groupId: 'grp_sim_editing', parentGroupId: 'grp_sim_post', name: 'Editing' },
  { groupId: 'grp_sim_sound', parentGroupId: 'grp_sim_post', name: 'Sound' },
  { groupId: 'grp_sim_dialogue', parentGroupId: 'grp_sim_sound', name: 'Dialogue' },
  { groupId: 'grp_sim_music', parentGroupId: 'grp_sim_sound', name: 'Music' },
  { groupId: 'grp_sim_operations', parentGroupId: 'grp_sim_root', name: 'Operations' },
];

export interface FixtureMember {
  membershipId: string;
  accountId: string;
  userId: string;
  displayName: string;
  groupId: string;
  organizationRoles: string[];
  /** Contact data the platform holds but never returns from the directory. */
  email: string;
}

function person(key: string, displayName: string, groupId: string, roles = ['member']): FixtureMember {
  return {
    membershipId: `mbr_sim_${key}`,
    accountId: `acc_sim_${key}`,
    userId: `usr_sim_${key}`,
    displayName,
    groupId,
    organizationRoles: roles,
    email: `${key}@northwind.example`,
  };
}

/** Fourteen members of the organization; `manager` and `member` are the fixture people. */
export const FIXTURE_MEMBERS: readonly FixtureMember[] = [
  person('manager', 'Morgan Reyes', 'grp_sim_root', [ORGANIZATION_MANAGER_ROLE, 'member']),
  person('member', 'Sam Okafor', 'grp_sim_editing'),
  person('producer', 'Avery Lindqvist', 'grp_sim_production'),
  person('dop', 'Jun Takahashi', 'grp_sim_camera'),
  person('camera2', 'Priya Natarajan', 'grp_sim_camera'),
  person('designer', 'Lena Fischer', 'grp_sim_art'),
  person('props', 'Tomás Alvarez', 'grp_sim_art'),
  person('post', 'Chloé Martin', 'grp_sim_post'),
  person('editor2', 'Noah Becker', 'grp_sim_editing'),
  person('colorist', 'Mei Chen', 'grp_sim_editing'),
  person('mixer', 'Oskar Nowak', 'grp_sim_sound'),
  person('dialogue', 'Ines Duarte', 'grp_sim_dialogue'),
  person('composer', 'Kwame Mensah', 'grp_sim_music'),
  person('ops', 'Hana Kim', 'grp_sim_operations'),
];

export function findApp(appKey: string): FixtureApp | undefined {
  return FIXTURE_APPS.find((app) => app.appKey === appKey);
}

export function appByCredential(credential: string): FixtureApp | undefined {
  return FIXTURE_APPS.find((app) => app.appCredential === credential);
}

export function isFixtureUser(value: unknown): value is FixtureUser {
  return typeof value === 'string' && (FIXTURE_USERS as readonly string[]).includes(value);
}

/** The application's role codes of a person (always an array). */
export function appRolesOf(app: FixtureApp, userId: string): string[] {
  return [...(app.roles[userId] ?? [])];
}

/** Whether the person is an organization manager of their organization. */
export function isOrganizationManager(subject: Subject): boolean {
  if (!subject.organizationId || !subject.membershipId) return false;
  const member = FIXTURE_MEMBERS.find((m) => m.membershipId === subject.membershipId);
  return Boolean(member?.organizationRoles.includes(ORGANIZATION_MANAGER_ROLE));
}
