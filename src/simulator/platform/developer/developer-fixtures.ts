/**
 * The local developer of the simulated developer control plane (section E): their fixed session
 * token, their publisher, the applications they own (the two fixture applications) and one
 * application of another publisher (so that "not owned" answers the same 404 as "nonexistent").
 * Everything is stable fake data; the token is a local-simulation value like the fixed local
 * test token, never a real secret.
 */
import { FIXTURE_APPS, FIXTURE_SUBJECTS, type Subject } from '../fixtures.js';

/** `{developer_base_url}` (absolute path on the simulator's origin). */
export const DEVELOPER_BASE_PATH = '/platform/api/v1/appstore/developer';
export const developerBaseUrlOf = (origin: string) => origin + DEVELOPER_BASE_PATH;
/** The local developer portal page (served on loopback). */
export const DEVELOPER_PORTAL_PATH = '/platform/developer-portal';
/** The reviewer's inspection route (simulator-only, with the fixed local test token). */
export const DEVELOPER_REVIEW_PATH = '/platform/_simulator/review';

/** The local developer's browser session, accepted as `Authorization: Bearer` (section E). */
export const DEVELOPER_TOKEN = 'fw-sim-developer-token';

/** The identity of the local developer (a CLI pairing without `testAccountId` acts as them). */
export const DEVELOPER_SUBJECT: Subject = {
  tenantId: 'tnt_sim_developer',
  accountId: 'acc_sim_developer',
  workspaceId: 'wsp_sim_developer',
  userId: 'usr_sim_developer',
};

export interface Publisher {
  publisherId: string;
  name: string;
  status: 'active';
  createdAt: string;
}

/** Fixed creation time of every fixture record (stable across runs). */
export const FIXTURE_CREATED_AT = '2026-01-05T09:00:00.000Z';

export const LOCAL_PUBLISHER: Publisher = {
  publisherId: 'pub_sim_local_developer',
  name: 'Local Developer Studio',
  status: 'active',
  createdAt: FIXTURE_CREATED_AT,
};

/** A publisher the local developer does not belong to. */
export const OTHER_PUBLISHER: Publisher = {
  publisherId: 'pub_sim_other_publisher',
  name: 'Other Publisher Ltd',
  status: 'active',
  createdAt: FIXTURE_CREATED_AT,
};

/** The publishers the local developer belongs to. */
export const DEVELOPER_PUBLISHERS: readonly Publisher[] = [LOCAL_PUBLISHER];

export interface SeedApp {
  appId: string;
  appKey: string;
  name: string;
  description: string;
  publisherId: string;
  activeVersionId: string;
  draftVersionId: string;
  roles: { roleCode: string; displayName: string; description: string }[];
}

const title = (code: string) =>
  code
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');

/** Role codes of a fixture application, from the per-person roles of fixtures.ts. */
function rolesOf(roles: Partial<Record<string, string[]>>): SeedApp['roles'] {
  const codes = [...new Set(Object.values(roles).flatMap((r) => r ?? []))].sort();
  return codes.map((roleCode) => ({
    roleCode,
    displayName: title(roleCode),
    description: `The ${title(roleCode).toLowerCase()} role of this application.`,
  }));
}

/** The draft version id seeded next to a fixture application's active version. */
export const draftVersionIdOf = (activeVersionId: string) => activeVersionId.replace(/_1$/, '_2');

export const SEED_APPS: readonly SeedApp[] = [
  ...FIXTURE_APPS.map((app) => ({
    appId: app.appId,
    appKey: app.appKey,
    name: title(app.appKey.replaceAll('-', '_')),
    description: `The ${app.appKey} fixture application.`,
    publisherId: LOCAL_PUBLISHER.publisherId,
    activeVersionId: app.appVersionId,
    draftVersionId: draftVersionIdOf(app.appVersionId),
    roles: rolesOf(app.roles),
  })),
  {
    appId: 'app_sim_other_publisher_app',
    appKey: 'other-publisher-app',
    name: 'Other Publisher App',
    description: 'An application of another publisher (never visible to the local developer).',
    publisherId: OTHER_PUBLISHER.publisherId,
    activeVersionId: 'appver_sim_other_publisher_app_1',
    draftVersionId: 'appver_sim_other_publisher_app_2',
    roles: [],
  },
];

export interface TestAccount {
  id: string;
  appId: string;
  accountId: string;
  organizationId: string;
  displayName: string;
  organizationName: string;
  createdAt: string;
  /** Not returned: the identity a CLI pairing with this record acts as. */
  subject: Subject;
}

/** Two test accounts per fixture application: the organization manager and the personal user. */
export const SEED_TEST_ACCOUNTS: readonly TestAccount[] = SEED_APPS.flatMap((app) => {
  const short = app.appId.replace(/^app_sim_/, '');
  return [
    {
      id: `ta_sim_${short}_manager`,
      appId: app.appId,
      accountId: FIXTURE_SUBJECTS.manager.accountId,
      organizationId: FIXTURE_SUBJECTS.manager.organizationId!,
      displayName: 'Morgan Reyes',
      organizationName: 'Northwind Pictures',
      createdAt: FIXTURE_CREATED_AT,
      subject: { ...FIXTURE_SUBJECTS.manager },
    },
    {
      id: `ta_sim_${short}_personal`,
      appId: app.appId,
      accountId: FIXTURE_SUBJECTS.personal.accountId,
      // a personal account has no organization: the empty string (the field is always present)
      organizationId: '',
      displayName: 'Pat Personal',
      organizationName: '',
      createdAt: FIXTURE_CREATED_AT,
      subject: { ...FIXTURE_SUBJECTS.personal },
    },
  ];
});
