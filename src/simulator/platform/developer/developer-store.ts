import { createHash } from 'node:crypto';
import type { SimClock } from '../../clock.js';
import { iso } from '../../clock.js';
import { canonicalJson } from '../../http.js';
import { FIXTURE_APPS } from '../fixtures.js';
import type { PlatformLog, PlatformLogRecord } from '../platform-log.js';
import { FIXTURE_CREATED_AT, SEED_APPS, SEED_TEST_ACCOUNTS, type TestAccount } from './developer-fixtures.js';
import type { Submission } from './developer-schemas.js';

export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export interface DevApp {
  appId: string;
  appKey: string;
  name: string;
  description: string;
  publisherId: string;
  status: 'active';
  activeVersionId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RoleDefinition {
  roleCode: string;
  displayName: string;
  description: string;
  definitionVersion: number;
  status: 'active' | 'retired';
}

export type VersionStatus = 'draft' | 'submitted' | 'active' | 'inactive' | 'deleted';

export interface BoundImage {
  imageAssetId: string;
  component: string;
  digest: string;
  displayVersion?: string;
}

export interface SourceReceipt {
  sha256: string;
  sizeBytes: number;
  receivedAt: string;
  origin: 'json' | 'upload' | 'seed';
  fileName?: string;
}

export interface AuditItem {
  at: string;
  action: string;
  actor: string;
  details?: Record<string, unknown>;
}

export interface DevVersion {
  versionId: string;
  appId: string;
  status: VersionStatus;
  submission: Submission;
  source: SourceReceipt | null;
  images: BoundImage[];
  artifactVerifiedAt: string | null;
  idempotencyKey: string | null;
  /** sha256 of the canonical creation body (same key + same body reuses; other body 409). */
  requestHash: string | null;
  createdAt: string;
  updatedAt: string;
  submittedAt?: string;
  audit: AuditItem[];
}

export type RequestKind = 'delete' | 'publish' | 'unpublish' | 'change';
export type RequestStatus = 'draft' | 'pending' | 'approved' | 'rejected' | 'canceled' | 'applied';

export interface VersionRequest {
  requestId: string;
  appId: string;
  versionId: string;
  kind: RequestKind;
  reason: string | null;
  status: RequestStatus;
  createdAt: string;
  updatedAt: string;
  decidedAt?: string;
  appliedAt?: string;
}

export interface Difference {
  path: string;
  change: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

export interface ChangeProposal {
  proposalId: string;
  requestId: string;
  appId: string;
  versionId: string;
  status: 'editing' | 'submitted' | 'approved' | 'rejected' | 'canceled' | 'applied';
  base: Submission;
  workingCopy: Submission;
  differences: Difference[];
  images: BoundImage[];
  createdAt: string;
  updatedAt: string;
}

export interface UploadedPart {
  partNumber: number;
  etag: string;
  sizeBytes: number;
}

export type ImportStatus = 'pending' | 'uploading' | 'importing' | 'completed' | 'failed';

export interface ImageImport {
  imageImportId: string;
  appId: string;
  versionId?: string;
  changeRequestId?: string;
  idempotencyKey: string;
  requestHash: string;
  fileName: string;
  sizeBytes: number;
  sha256?: string;
  archiveType: 'oci-archive' | 'docker-archive';
  component: string;
  displayVersion?: string;
  status: ImportStatus;
  partSizeBytes: number;
  partCount: number;
  uploadedParts: UploadedPart[];
  createdAtMs: number;
  expiresAtMs: number;
  imageAssetId?: string;
  repository?: string;
  digest?: string;
  architecture?: string;
  importedAt?: string;
  errorCode?: string;
  errorMessage?: string;
}

export interface CliAuthorization {
  /** sha256 of the authorization code (the code itself is never stored). */
  codeHash: string;
  appId: string;
  versionId: string | null;
  testAccountId: string | null;
  codeChallenge: string;
  redirectUri: string;
  expiresAtMs: number;
  consumed: boolean;
}

export interface SdkToken {
  tokenHash: string;
  expiresAtMs: number;
}

/** A version's submission as seeded for a fixture application (mirrors fixtures.ts). */
function seedSubmission(appKey: string, displayVersion: string): Submission {
  const fixture = FIXTURE_APPS.find((a) => a.appKey === appKey);
  return {
    schemaVersion: 1,
    appKey,
    displayVersion,
    releaseNotes: '',
    entry: { component: 'web', port: 8080, healthPath: '/healthz' },
    components: [{ name: 'web', resources: { cpuMillis: 500, memoryMiB: 512 } }],
    dependencies: (fixture?.dependencies ?? []).map((d) => ({ ...d, scopes: [...d.scopes] })),
    capabilities: (fixture?.capabilities ?? []).map((c) => ({
      apiVersion: c.apiVersion,
      scopes: [...c.scopes],
      onlineDebug: true,
    })),
  };
}

/** The canonical bytes of a submission (what a source file is compared with and hashed as). */
export const submissionBytes = (s: Submission) => Buffer.from(canonicalJson(s));

/**
 * The developer control plane's state: applications, roles, versions, requests, change
 * proposals, image imports, CLI authorizations (by code hash) and SDK tokens (by hash). The
 * fixture world is seeded at construction; every change is written to the platform log as
 * `dev_<kind>` records and replayed at start, so state survives a restart with `--data-dir`.
 */
export class DeveloperStore {
  readonly apps = new Map<string, DevApp>();
  readonly roles = new Map<string, RoleDefinition[]>();
  readonly versions = new Map<string, DevVersion>();
  readonly requests = new Map<string, VersionRequest>();
  readonly proposals = new Map<string, ChangeProposal>();
  readonly imports = new Map<string, ImageImport>();
  readonly cliAuthorizations = new Map<string, CliAuthorization>();
  readonly sdkTokens = new Map<string, SdkToken>();
  readonly testAccounts: readonly TestAccount[] = SEED_TEST_ACCOUNTS;
  /** The private package index switch (inspection route): `configured` false answers 503. */
  sdkIndex = { configured: true, released: true };

  constructor(
    readonly clock: SimClock,
    private readonly log?: PlatformLog,
  ) {
    for (const seed of SEED_APPS) {
      this.apps.set(seed.appId, {
        appId: seed.appId,
        appKey: seed.appKey,
        name: seed.name,
        description: seed.description,
        publisherId: seed.publisherId,
        status: 'active',
        activeVersionId: seed.activeVersionId,
        createdAt: FIXTURE_CREATED_AT,
        updatedAt: FIXTURE_CREATED_AT,
      });
      this.roles.set(
        seed.appId,
        seed.roles.map((r) => ({ ...r, definitionVersion: 1, status: 'active' })),
      );
      for (const [versionId, status, displayVersion] of [
        [seed.activeVersionId, 'active', '1.0.0'],
        [seed.draftVersionId, 'draft', '1.1.0'],
      ] as const) {
        const submission = seedSubmission(seed.appKey, displayVersion);
        const bytes = submissionBytes(submission);
        this.versions.set(versionId, {
          versionId,
          appId: seed.appId,
          status,
          submission,
          source: {
            sha256: sha256Hex(bytes),
            sizeBytes: bytes.length,
            receivedAt: FIXTURE_CREATED_AT,
            origin: 'seed',
          },
          images: [],
          artifactVerifiedAt: status === 'active' ? FIXTURE_CREATED_AT : null,
          idempotencyKey: null,
          requestHash: null,
          createdAt: FIXTURE_CREATED_AT,
          updatedAt: FIXTURE_CREATED_AT,
          audit: [{ at: FIXTURE_CREATED_AT, action: 'version.created', actor: 'fixture' }],
        });
      }
    }
  }

  now(): string {
    return iso(this.clock.nowMs());
  }

  saveApp(app: DevApp): void {
    this.apps.set(app.appId, app);
    this.log?.append('dev_app', app.appId, app);
  }

  saveRoles(appId: string, roles: RoleDefinition[]): void {
    this.roles.set(appId, roles);
    this.log?.append('dev_roles', appId, roles);
  }

  saveVersion(version: DevVersion): void {
    this.versions.set(version.versionId, version);
    this.log?.append('dev_version', version.versionId, version);
  }

  saveRequest(request: VersionRequest): void {
    this.requests.set(request.requestId, request);
    this.log?.append('dev_request', request.requestId, request);
  }

  saveProposal(proposal: ChangeProposal): void {
    this.proposals.set(proposal.requestId, proposal);
    this.log?.append('dev_proposal', proposal.requestId, proposal);
  }

  saveImport(record: ImageImport): void {
    this.imports.set(record.imageImportId, record);
    this.log?.append('dev_image_import', record.imageImportId, record);
  }

  saveCliAuthorization(record: CliAuthorization): void {
    this.cliAuthorizations.set(record.codeHash, record);
    this.log?.append('dev_cli_authorization', record.codeHash, record);
  }

  saveSdkToken(record: SdkToken): void {
    this.sdkTokens.set(record.tokenHash, record);
    this.log?.append('dev_sdk_token', record.tokenHash, record);
  }

  saveSdkIndex(config: { configured: boolean; released: boolean }): void {
    this.sdkIndex = config;
    this.log?.append('dev_sdk_index', 'config', config);
  }

  /** The active version id of an application (the session service launches it); undefined when none is known. */
  activeVersionIdOf(appKey: string): string | undefined {
    for (const app of this.apps.values()) if (app.appKey === appKey) return app.activeVersionId ?? undefined;
    return undefined;
  }

  versionsOf(appId: string): DevVersion[] {
    return [...this.versions.values()].filter((v) => v.appId === appId);
  }

  requestsOf(versionId: string): VersionRequest[] {
    return [...this.requests.values()].filter((r) => r.versionId === versionId);
  }

  restore(records: readonly PlatformLogRecord[]): void {
    for (const { t, id, v } of records) {
      if (t === 'dev_app') this.apps.set(id, v as DevApp);
      else if (t === 'dev_roles') this.roles.set(id, v as RoleDefinition[]);
      else if (t === 'dev_version') this.versions.set(id, v as DevVersion);
      else if (t === 'dev_request') this.requests.set(id, v as VersionRequest);
      else if (t === 'dev_proposal') this.proposals.set(id, v as ChangeProposal);
      else if (t === 'dev_image_import') this.imports.set(id, v as ImageImport);
      else if (t === 'dev_cli_authorization') this.cliAuthorizations.set(id, v as CliAuthorization);
      else if (t === 'dev_sdk_token') this.sdkTokens.set(id, v as SdkToken);
      else if (t === 'dev_sdk_index') this.sdkIndex = v as { configured: boolean; released: boolean };
    }
  }

  /** The records of the live state (seeded records included: they are small and may have changed). */
  snapshot(): PlatformLogRecord[] {
    const now = this.clock.nowMs();
    return [
      ...[...this.apps.values()].map((v) => ({ t: 'dev_app', id: v.appId, v })),
      ...[...this.roles].map(([id, v]) => ({ t: 'dev_roles', id, v })),
      ...[...this.versions.values()].map((v) => ({ t: 'dev_version', id: v.versionId, v })),
      ...[...this.requests.values()].map((v) => ({ t: 'dev_request', id: v.requestId, v })),
      ...[...this.proposals.values()].map((v) => ({ t: 'dev_proposal', id: v.requestId, v })),
      ...[...this.imports.values()].map((v) => ({ t: 'dev_image_import', id: v.imageImportId, v })),
      ...[...this.cliAuthorizations.values()]
        .filter((v) => !v.consumed && v.expiresAtMs > now)
        .map((v) => ({ t: 'dev_cli_authorization', id: v.codeHash, v })),
      ...[...this.sdkTokens.values()]
        .filter((v) => v.expiresAtMs > now)
        .map((v) => ({ t: 'dev_sdk_token', id: v.tokenHash, v })),
      { t: 'dev_sdk_index', id: 'config', v: this.sdkIndex },
    ];
  }
}
