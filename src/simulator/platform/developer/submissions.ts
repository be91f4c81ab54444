import { canonicalJson } from '../../http.js';
import { SubmissionSchema, type Submission, type SubmissionInput } from './developer-schemas.js';
import type { DevApp, DeveloperStore, Difference } from './developer-store.js';

export interface ValidationIssue {
  code: string;
  path: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface SubmissionCheck {
  valid: boolean;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
  normalized?: Submission;
}

/** Defaults filled in; `artifact` dropped (a submission never self-certifies `artifact.verified`). */
export function normalizeSubmission(input: SubmissionInput): Submission {
  return {
    schemaVersion: 1,
    appKey: input.appKey,
    displayVersion: input.displayVersion,
    releaseNotes: input.releaseNotes ?? '',
    entry: {
      component: input.entry.component,
      port: input.entry.port,
      healthPath: input.entry.healthPath ?? '/',
    },
    components: input.components.map((c) => ({
      name: c.name,
      ...(c.imageAssetId ? { imageAssetId: c.imageAssetId } : {}),
      resources: c.resources ?? { cpuMillis: 500, memoryMiB: 512 },
    })),
    dependencies: (input.dependencies ?? []).map((d) => ({ ...d, scopes: [...d.scopes] })),
    capabilities: (input.capabilities ?? []).map((c) => ({
      apiVersion: c.apiVersion,
      scopes: [...c.scopes],
      onlineDebug: c.onlineDebug ?? false,
    })),
  };
}

/** The platform's checks of a submission for an application (nothing is created). */
export function checkSubmission(store: DeveloperStore, app: DevApp, raw: unknown): SubmissionCheck {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  const parsed = SubmissionSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      errors.push({
        code: 'SUBMISSION_FIELD_INVALID',
        path: issue.path.map(String).join('.'),
        message: issue.message,
        severity: 'error',
      });
    return { valid: false, errors, warnings };
  }
  const input = parsed.data;
  if (input.appKey !== app.appKey)
    errors.push({
      code: 'APP_KEY_MISMATCH',
      path: 'appKey',
      message: 'appKey is not this application.',
      severity: 'error',
    });
  const names = input.components.map((c) => c.name);
  if (new Set(names).size !== names.length)
    errors.push({
      code: 'COMPONENT_DUPLICATE',
      path: 'components',
      message: 'Component names repeat.',
      severity: 'error',
    });
  if (!names.includes(input.entry.component))
    errors.push({
      code: 'ENTRY_COMPONENT_UNKNOWN',
      path: 'entry.component',
      message: 'The entry names no declared component.',
      severity: 'error',
    });
  input.components.forEach((c, i) => {
    if (!c.imageAssetId) return;
    const known = [...store.imports.values()].some(
      (imp) => imp.appId === app.appId && imp.status === 'completed' && imp.imageAssetId === c.imageAssetId,
    );
    if (!known)
      errors.push({
        code: 'IMAGE_ASSET_UNKNOWN',
        path: `components.${i}.imageAssetId`,
        message: 'imageAssetId names no completed image import of this application.',
        severity: 'error',
      });
  });
  if (input.artifact?.verified !== undefined)
    warnings.push({
      code: 'ARTIFACT_VERIFIED_IGNORED',
      path: 'artifact.verified',
      message: 'artifact.verified is set by the platform only; the submitted value is ignored.',
      severity: 'warning',
    });
  const normalized = normalizeSubmission(input);
  return errors.length ? { valid: false, errors, warnings } : { valid: true, errors, warnings, normalized };
}

/** The differences between two submissions, by JSON path (leaves and arrays compared whole). */
export function diffSubmissions(before: unknown, after: unknown, path = ''): Difference[] {
  if (canonicalJson(before) === canonicalJson(after)) return [];
  const isObj = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObj(before) && isObj(after)) {
    const a = before as Record<string, unknown>;
    const b = after as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => {
      const p = path ? `${path}.${k}` : k;
      if (!(k in a)) return [{ path: p, change: 'added' as const, after: b[k] }];
      if (!(k in b)) return [{ path: p, change: 'removed' as const, before: a[k] }];
      return diffSubmissions(a[k], b[k], p);
    });
  }
  return [{ path: path || '$', change: 'changed', before, after }];
}
