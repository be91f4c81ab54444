/**
 * The settings of two jobs, row by row, for the compare view's table: what was asked (model, mode,
 * seconds, orientation, resolution tier, seed, any other request field), the references by label
 * and sha256, the effective spec the platform resolved (each field), and the timings. Pure: it
 * reads two `JobDetail`s and returns display values, so the renderer, the CLI or a test can use it.
 */
import type { JobDetail } from '../bridge/domains/studio.js';

export type SettingGroup = 'request' | 'reference' | 'effective' | 'timing';

export interface SettingRow {
  /** Stable id (test ids, translation keys): `seed`, `reference-image-1`, `effective-fps`, `timing-queued`. */
  name: string;
  group: SettingGroup;
  /** English label: "Seed", "Image 1", "fps", "Queued". */
  label: string;
  /** Display value of A and B; null when the job has none (not sent, not known). */
  a: string | null;
  b: string | null;
  differs: boolean;
}

/** The request fields with their own row, in this order; `prompt` is diffed word by word as well. */
const REQUEST_FIELDS: readonly (readonly [string, string])[] = [
  ['model', 'Model'],
  ['generationMode', 'Mode'],
  ['prompt', 'Prompt'],
  ['seconds', 'Seconds'],
  ['orientation', 'Orientation'],
  ['resolutionTier', 'Resolution tier'],
  ['seed', 'Seed'],
];

/** Request fields that carry inputs: compared as references (label and sha256), not as asset ids. */
const INPUT_FIELDS = new Set(['input_image_asset_id', 'end_image_asset_id', 'referenceInputs']);

const TIMINGS: readonly (readonly [keyof JobDetail & string, string, string])[] = [
  ['queuedSeconds', 'timing-queued', 'Queued'],
  ['runningSeconds', 'timing-running', 'Running'],
  ['elapsedSeconds', 'timing-elapsed', 'Elapsed'],
];

/** Stable JSON (sorted keys), so two equal objects always print the same. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

export function displayValue(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return stable(value);
}

function row(name: string, group: SettingGroup, label: string, a: unknown, b: unknown): SettingRow {
  const va = displayValue(a);
  const vb = displayValue(b);
  return { name, group, label, a: va, b: vb, differs: va !== vb };
}

const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-|-$/g, '');

export interface ReferenceEntry {
  /** "First frame", "Last frame", "Image 1", "Video 2", "Audio 1". */
  label: string;
  fileName: string | null;
  sha256: string | null;
  assetId: string | null;
}

const KIND_WORD: Readonly<Record<string, string>> = {
  reference_image: 'Image',
  reference_video: 'Video',
  reference_audio: 'Audio',
};
const FRAME_LABEL: Readonly<Record<string, string>> = {
  first_frame: 'First frame',
  last_frame: 'Last frame',
};

/** Labels by role and order (each kind numbered on its own, as the request numbers them). */
function labeller(): (role: string) => string {
  const counters = new Map<string, number>();
  return (role) => {
    const frame = FRAME_LABEL[role];
    if (frame) return frame;
    const n = (counters.get(role) ?? 0) + 1;
    counters.set(role, n);
    return `${KIND_WORD[role] ?? role} ${n}`;
  };
}

/**
 * A job's inputs by label: the draft's references when the journal still knows them (file name
 * and sha256), else what the request body names (asset ids, and a sha256 when one was sent).
 */
export function referenceEntries(detail: Pick<JobDetail, 'references' | 'requested'>): ReferenceEntry[] {
  if (detail.references.length > 0) {
    const label = labeller();
    return detail.references.map((r) => {
      const computed = label(r.role);
      return {
        label: r.label ?? computed,
        fileName: r.fileName,
        sha256: r.sha256 ?? null,
        assetId: null,
      };
    });
  }
  const body = detail.requested;
  const out: ReferenceEntry[] = [];
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  const first = str(body.input_image_asset_id);
  const last = str(body.end_image_asset_id);
  if (first) out.push({ label: 'First frame', fileName: null, sha256: null, assetId: first });
  if (last) out.push({ label: 'Last frame', fileName: null, sha256: null, assetId: last });
  if (Array.isArray(body.referenceInputs)) {
    const label = labeller();
    for (const item of body.referenceInputs as Record<string, unknown>[]) {
      const role = str(item?.role) ?? 'reference';
      out.push({
        label: label(role),
        fileName: null,
        sha256: str(item?.sha256),
        assetId: str(item?.assetId),
      });
    }
  }
  return out;
}

/** What identifies an input's content: its sha256, else its asset id, else its file name. */
const identity = (r: ReferenceEntry): string | null =>
  r.sha256 ? `sha256:${r.sha256}` : r.assetId ? `asset:${r.assetId}` : r.fileName;

const describe = (r: ReferenceEntry | undefined): string | null =>
  r
    ? [r.fileName, r.sha256 ? `sha256 ${r.sha256}` : r.assetId ? `asset ${r.assetId}` : null]
        .filter(Boolean)
        .join(' · ') || null
    : null;

function referenceRows(a: JobDetail, b: JobDetail): SettingRow[] {
  const ra = referenceEntries(a);
  const rb = referenceEntries(b);
  const labels = [...new Set([...ra.map((r) => r.label), ...rb.map((r) => r.label)])];
  return labels.map((label) => {
    const x = ra.find((r) => r.label === label);
    const y = rb.find((r) => r.label === label);
    return {
      name: `reference-${slug(label)}`,
      group: 'reference',
      label,
      a: describe(x),
      b: describe(y),
      differs: (x ? identity(x) : null) !== (y ? identity(y) : null),
    };
  });
}

/** An effective spec's fields, nested objects flattened with dots (`audio.codec`). */
function flatten(spec: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return out;
  for (const [k, v] of Object.entries(spec as Record<string, unknown>)) {
    if (v && typeof v === 'object' && !Array.isArray(v))
      for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
    else out.set(`${prefix}${k}`, v);
  }
  return out;
}

/** Seconds at the precision the table shows (0.1 s): timings closer than that are equal. */
export function formatSeconds(seconds: number | null | undefined): string | null {
  return typeof seconds === 'number' && Number.isFinite(seconds) ? `${seconds.toFixed(1)} s` : null;
}

/** Every setting of A and B that either has, equal or not, in table order. */
export function compareSettings(a: JobDetail, b: JobDetail): SettingRow[] {
  const rows: SettingRow[] = [];
  const request = (d: JobDetail, key: string): unknown =>
    key === 'model' ? d.model : key === 'seed' ? d.seed : d.requested[key];
  for (const [key, label] of REQUEST_FIELDS)
    rows.push(row(key, 'request', label, request(a, key), request(b, key)));
  if (a.originalPrompt !== null || b.originalPrompt !== null)
    rows.push(
      row('originalPrompt', 'request', 'Prompt before optimization', a.originalPrompt, b.originalPrompt),
    );
  const known = new Set([...REQUEST_FIELDS.map(([k]) => k), ...INPUT_FIELDS]);
  const others = [...new Set([...Object.keys(a.requested), ...Object.keys(b.requested)])].filter(
    (k) => !known.has(k),
  );
  for (const key of others.sort()) rows.push(row(key, 'request', key, a.requested[key], b.requested[key]));
  rows.push(...referenceRows(a, b));
  const ea = flatten(a.effectiveSpec);
  const eb = flatten(b.effectiveSpec);
  for (const key of new Set([...ea.keys(), ...eb.keys()]))
    rows.push(row(`effective-${slug(key)}`, 'effective', key, ea.get(key), eb.get(key)));
  for (const [field, name, label] of TIMINGS)
    rows.push(
      row(
        name,
        'timing',
        label,
        formatSeconds(a[field] as number | null),
        formatSeconds(b[field] as number | null),
      ),
    );
  return rows.filter((r) => r.a !== null || r.b !== null);
}

/** Only the settings that differ between A and B (none for two equal jobs). */
export function settingsThatDiffer(a: JobDetail, b: JobDetail): SettingRow[] {
  return compareSettings(a, b).filter((r) => r.differs);
}
