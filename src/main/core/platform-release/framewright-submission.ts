import { createHash } from 'node:crypto';

/**
 * Framewright as a platform application, in one place: what `framewright platform release`
 * submits (section E, "Developer resources" and the version's source file) and what
 * `framewright platform roles` keeps on the platform.
 *
 * The platform's submission (the simulator's accepted shape, `src/simulator/README.md`, "Developer
 * control plane": `{appKey, displayVersion, releaseNotes?, entry, components, dependencies?,
 * capabilities?}`) carries the application key, the backend component, the dependency and the
 * capability. The application's name, its roles and its resource type are facts of the application
 * rather than of a version: the application's record holds the name, `PUT /apps/{appId}/roles`
 * the roles, and `project` is what every runtime job's `resourceAttribution` names
 * (`features/projects/`). They are declared here so that the one module says all of it.
 */

export const FRAMEWRIGHT_APP = {
  appKey: 'framewright-studio',
  name: 'Framewright',
  resourceTypes: ['project'] as const,
} as const;

/**
 * The backend component (`framewright serve --platform`): its port and its probes' paths. One
 * definition: the submission declares them, the host serves them (host/deployment-probes.ts), the
 * image listens on the port.
 */
export const BACKEND_COMPONENT = {
  name: 'backend',
  port: 8080,
  healthPath: '/healthz',
  readinessPath: '/readyz',
} as const;

/** The application's roles (section E, "Role definition"; `roleCode` never changes). */
export const FRAMEWRIGHT_ROLES = [
  {
    roleCode: 'studio_admin',
    displayName: 'Studio administrator',
    description: 'Manages projects, the team view and every job of the organization in Framewright.',
    definitionVersion: 1,
    status: 'active',
  },
  {
    roleCode: 'studio_editor',
    displayName: 'Studio editor',
    description: 'Creates drafts and jobs and edits projects and sequences.',
    definitionVersion: 1,
    status: 'active',
  },
  {
    roleCode: 'studio_viewer',
    displayName: 'Studio viewer',
    description: 'Sees projects, jobs and results; creates nothing.',
    definitionVersion: 1,
    status: 'active',
  },
] as const;

/** The application Framewright calls (the storyboard tools). */
export const STORYBOARD_DEPENDENCY = {
  calleeAppKey: 'storyboard-helper',
  apiVersion: '2026-01',
  scopes: ['storyboard.read', 'storyboard.write'],
} as const;

/**
 * What other applications call in Framewright: creating a shot sequence. Not opened for online
 * debugging: `onlineDebug: true` would let a caller under debugging reach Framewright as a local
 * debug provider (spec section D: receivers, peer-grant resolve and launch, the debug session
 * exchange), and Framewright implements none of that — it serves `sequence.create` to deployed
 * callers only. Declaring what is not served would make those debug calls fail at Framewright.
 */
export const SEQUENCE_CAPABILITY = {
  apiVersion: '2026-01',
  scopes: ['sequence.create'],
  onlineDebug: false,
} as const;

export interface SubmissionOptions {
  /** The version shown to people (semver), by default Framewright's own version. */
  displayVersion: string;
  releaseNotes?: string;
  /** The application key (default `framewright-studio`). */
  appKey?: string;
}

/** The platform submission of one Framewright version. */
export interface FramewrightSubmission {
  appKey: string;
  displayVersion: string;
  releaseNotes: string;
  entry: { component: string; port: number; healthPath: string };
  components: { name: string; resources: { cpuMillis: number; memoryMiB: number } }[];
  dependencies: { calleeAppKey: string; apiVersion: string; scopes: string[] }[];
  capabilities: { apiVersion: string; scopes: string[]; onlineDebug: boolean }[];
}

/** Framewright's submission for a version: the same options always give the same submission. */
export function framewrightSubmission(options: SubmissionOptions): FramewrightSubmission {
  return {
    appKey: options.appKey ?? FRAMEWRIGHT_APP.appKey,
    displayVersion: options.displayVersion,
    releaseNotes: options.releaseNotes ?? '',
    entry: {
      component: BACKEND_COMPONENT.name,
      port: BACKEND_COMPONENT.port,
      healthPath: BACKEND_COMPONENT.healthPath,
    },
    components: [{ name: BACKEND_COMPONENT.name, resources: { cpuMillis: 1000, memoryMiB: 1024 } }],
    dependencies: [{ ...STORYBOARD_DEPENDENCY, scopes: [...STORYBOARD_DEPENDENCY.scopes] }],
    capabilities: [{ ...SEQUENCE_CAPABILITY, scopes: [...SEQUENCE_CAPABILITY.scopes] }],
  };
}

/** JSON with object keys sorted at every level: one text for one value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The version's idempotency key, derived from the normalized submission: the same submission
 * always reuses its version; any change (a field, a note, a scope) is a new key and a new version
 * (spec, Errors: "a changed business request needs a new business key").
 */
export function versionKeyOf(normalized: unknown): string {
  return `fw-version-${createHash('sha256').update(canonicalJson(normalized)).digest('hex').slice(0, 40)}`;
}

/** The image import's idempotency key: the version and the archive's sha256, stable across runs. */
export function imageImportKeyOf(versionId: string, sha256Hex: string): string {
  return `fw-image-${createHash('sha256').update(`${versionId}\n${sha256Hex}`).digest('hex').slice(0, 40)}`;
}
