import type { JobMarks } from '../../../shared/library-marks.js';
import type { NoteRect } from '../../../shared/library-review.js';

/**
 * What a review package says about its takes, as text: the contact sheet (`index.html`),
 * `review.csv`, `review.json` and `README.txt`. Pure functions over the takes as they were
 * written into the folder (their relative file names), so the writer decides the files and these
 * only say them.
 */

/** What a reviewed take is, for someone without Framewright: what made it, its marks and notes. */
export interface ReviewedTake {
  title: string;
  prompt: string;
  model: string;
  seed: number | null;
  generationMode: string | null;
  marks: JobMarks;
  notes: { atSeconds: number; text: string; rect: NoteRect | null }[];
}

/** One take as written into the package: its facts and the package-relative files it has. */
export interface PackagedTake extends ReviewedTake {
  /** 1-based, in the collection's order. */
  position: number;
  /** `takes/NN-slug.ext`, or null: the take's file is not stored. */
  file: string | null;
  mimeType: string | null;
  sha256: string | null;
  /** `posters/NN-slug.png` (a video's still), or null. */
  poster: string | null;
  acceptedAt: number;
  jobId: string;
}

export interface PackageFacts {
  collectionName: string;
  exportedAt: Date;
  takes: PackagedTake[];
}

/** The format of `review.json`, raised when its shape changes. */
export const REVIEW_PACKAGE_FORMAT_VERSION = 1;

const NOT_STORED = 'file not stored';

/** `0:03.20`: minutes, seconds and hundredths (hours first from an hour on: `1:02:03.20`). */
export function formatNoteTime(seconds: number): string {
  const hundredths = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(hundredths / 360_000);
  const m = Math.floor((hundredths % 360_000) / 6000);
  const s = Math.floor((hundredths % 6000) / 100);
  const cs = hundredths % 100;
  const tail = `${String(s).padStart(2, '0')}.${String(cs).padStart(2, '0')}`;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${tail}` : `${m}:${tail}`;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A package-relative path as an href: each segment percent-encoded (names may hold any letter). */
function href(relative: string): string {
  return relative.split('/').map(encodeURIComponent).join('/');
}

function starsOf(stars: number): string {
  const n = Math.max(0, Math.min(5, Math.round(stars)));
  return '★'.repeat(n) + '☆'.repeat(5 - n);
}

function flagOf(flag: JobMarks['flag']): string {
  return flag === 'pick' ? 'Pick' : flag === 'reject' ? 'Reject' : 'Unmarked';
}

const LABEL_COLOURS: Record<string, string> = {
  red: '#d64545',
  yellow: '#d9a400',
  green: '#2f9e44',
  blue: '#3b6fd8',
  purple: '#8e44c9',
};

function pct(n: number): string {
  return `${(Math.max(0, Math.min(1, n)) * 100).toFixed(3)}%`;
}

function mediaOf(take: PackagedTake): string {
  const mime = take.mimeType ?? '';
  const alt = escapeHtml(`Take ${take.position}: ${take.title}`);
  if (take.file && mime.startsWith('video/')) {
    const poster = take.poster ? ` poster="${href(take.poster)}"` : '';
    return `<video controls preload="metadata"${poster} src="${href(take.file)}" aria-label="${alt}"></video>`;
  }
  if (take.file && mime.startsWith('image/')) return `<img src="${href(take.file)}" alt="${alt}">`;
  if (take.poster) return `<img src="${href(take.poster)}" alt="${alt}">`;
  if (take.file && mime.startsWith('audio/'))
    return `<div class="tile">Audio</div><audio controls preload="none" src="${href(take.file)}" aria-label="${alt}"></audio>`;
  return `<div class="tile">${take.file ? 'No preview' : 'File not stored'}</div>`;
}

function takeHtml(take: PackagedTake): string {
  let boxNumber = 0;
  const boxes: string[] = [];
  const notes = take.notes.map((note) => {
    let marker = '';
    if (note.rect) {
      boxNumber += 1;
      const { x, y, width, height } = note.rect;
      boxes.push(
        `<span class="box" style="left:${pct(x)};top:${pct(y)};width:${pct(width)};height:${pct(height)}"><b>${boxNumber}</b></span>`,
      );
      marker = ` <span class="marker" title="drawn on the frame">▭${boxNumber}</span>`;
    }
    return `<li><time>${formatNoteTime(note.atSeconds)}</time>${marker} ${escapeHtml(note.text)}</li>`;
  });
  const label = take.marks.label
    ? `<span class="label"><i style="background:${LABEL_COLOURS[take.marks.label] ?? '#888'}"></i>${escapeHtml(take.marks.label)}</span>`
    : '<span class="label none">no label</span>';
  const facts: [string, string][] = [
    ['Model', take.model],
    ['Seed', take.seed === null ? '—' : String(take.seed)],
    ['Mode', take.generationMode ?? '—'],
  ];
  const fileLine = take.file
    ? `<a href="${href(take.file)}">${escapeHtml(take.file)}</a>`
    : `<span class="missing">${NOT_STORED}</span>`;
  return `<article class="take" id="take-${take.position}">
<div class="frame">${mediaOf(take)}${boxes.join('')}</div>
<h2><span class="pos">${take.position}</span> ${escapeHtml(take.title)}</h2>
<p class="marks"><span class="flag ${take.marks.flag ?? 'unmarked'}">${flagOf(take.marks.flag)}</span> <span class="stars" aria-label="${take.marks.stars} of 5 stars">${starsOf(take.marks.stars)}</span> ${label}</p>
<p class="prompt">${escapeHtml(take.prompt)}</p>
<dl>${facts.map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`).join('')}<dt>File</dt><dd>${fileLine}</dd></dl>
${notes.length ? `<ol class="notes">${notes.join('\n')}</ol>` : '<p class="nonotes">No notes.</p>'}
</article>`;
}

const STYLE = `
:root{color-scheme:light dark;--bg:#f6f6f4;--card:#fff;--fg:#1d1d1f;--muted:#5c5c62;--line:#d9d9de;--box:#ff2d55}
@media (prefers-color-scheme:dark){:root{--bg:#141416;--card:#1f1f23;--fg:#ececf0;--muted:#a4a4ad;--line:#34343a;--box:#ff6482}}
*{box-sizing:border-box}
body{margin:0;padding:24px;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header{margin-bottom:20px}header h1{margin:0 0 4px;font-size:24px}header p{margin:2px 0;color:var(--muted)}
a{color:inherit}
main{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:16px}
.take{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px;overflow-wrap:anywhere}
.frame{position:relative;background:#000;border-radius:6px;overflow:hidden;line-height:0}
.frame img,.frame video{display:block;width:100%;height:auto}
.frame audio{width:100%}
.tile{aspect-ratio:16/9;display:flex;align-items:center;justify-content:center;color:#bbb;background:#333;line-height:1.4}
.box{position:absolute;border:2px solid var(--box);pointer-events:none;line-height:1}
.box b{position:absolute;top:0;left:0;background:var(--box);color:#fff;font-size:11px;padding:1px 4px}
h2{font-size:16px;margin:10px 0 4px}.pos{color:var(--muted);font-weight:normal}
.marks{margin:4px 0}.stars{letter-spacing:1px;color:#e0a800}
.flag{font-weight:600}.flag.pick{color:#2f9e44}.flag.reject{color:#d64545}.flag.unmarked{color:var(--muted)}
.label i{display:inline-block;width:10px;height:10px;border-radius:50%;margin:0 4px 0 8px}.label.none{color:var(--muted);margin-left:8px}
.prompt{white-space:pre-wrap;margin:6px 0}
dl{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:6px 0;color:var(--muted);font-size:13px}dd{margin:0}
.missing{font-style:italic}
.notes{margin:6px 0 0;padding-left:20px}.notes time{font-variant-numeric:tabular-nums;font-weight:600;margin-right:4px}
.marker{color:var(--box);font-weight:600}.nonotes{color:var(--muted);margin:6px 0 0}
@media print{body{background:#fff;color:#000}.take{break-inside:avoid}}
`;

/** The contact sheet: every take in order, readable with no script and nothing fetched. */
export function renderIndexHtml(facts: PackageFacts): string {
  const name = escapeHtml(facts.collectionName);
  const count = facts.takes.length;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta http-equiv="Content-Security-Policy" content="script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'">
<title>${name} — review</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${name}</h1>
<p>${count} ${count === 1 ? 'take' : 'takes'} · exported ${escapeHtml(facts.exportedAt.toISOString())} from Framewright</p>
<p><a href="contact-sheet.png">contact-sheet.png</a> · <a href="review.csv">review.csv</a> · <a href="review.json">review.json</a></p>
</header>
<main>
${facts.takes.map(takeHtml).join('\n')}
</main>
</body>
</html>
`;
}

/** The notes of a take on one line: `0:03.20 text | 0:05.00 text`. */
export function notesLine(notes: PackagedTake['notes']): string {
  return notes.map((n) => `${formatNoteTime(n.atSeconds)} ${n.text.replace(/\s+/g, ' ')}`).join(' | ');
}

/**
 * A text cell as a spreadsheet should show it, never run it: one starting with `=`, `+`, `-`,
 * `@`, a tab or a carriage return is prefixed with `'` (formula injection; prompts are user text).
 */
export function neutralizeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export const CSV_COLUMNS = [
  'position',
  'title',
  'prompt',
  'model',
  'seed',
  'mode',
  'flag',
  'stars',
  'label',
  'notes',
  'file',
] as const;

/**
 * `review.csv`: RFC 4180 (CRLF, fields with a comma, quote or line break quoted, quotes doubled),
 * UTF-8 with a byte-order mark so spreadsheets read non-ASCII prompts right. Text cells are
 * neutralized ({@link neutralizeFormula}); numbers (position, seed, stars) are written as numbers.
 */
export function renderCsv(takes: PackagedTake[]): string {
  const text = (s: string) => csvField(neutralizeFormula(s));
  const rows = takes.map((t) =>
    [
      String(t.position),
      text(t.title),
      text(t.prompt),
      text(t.model),
      t.seed === null ? '' : String(t.seed),
      text(t.generationMode ?? ''),
      t.marks.flag ?? '',
      String(t.marks.stars),
      t.marks.label ?? '',
      text(notesLine(t.notes)),
      text(t.file ?? NOT_STORED),
    ].join(','),
  );
  return `\uFEFF${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

/** `review.json`: a `framewright` header, then each take with its marks, notes (and rectangles) and files. */
export function renderJson(facts: PackageFacts): string {
  return `${JSON.stringify(
    {
      framewright: {
        format: 'review-package',
        version: REVIEW_PACKAGE_FORMAT_VERSION,
        collection: facts.collectionName,
        exportedAt: facts.exportedAt.toISOString(),
      },
      takes: facts.takes.map((t) => ({
        position: t.position,
        title: t.title,
        prompt: t.prompt,
        model: t.model,
        seed: t.seed,
        generationMode: t.generationMode,
        marks: { flag: t.marks.flag, stars: t.marks.stars, label: t.marks.label },
        notes: t.notes.map((n) => ({
          atSeconds: n.atSeconds,
          time: formatNoteTime(n.atSeconds),
          text: n.text,
          rect: n.rect,
        })),
        file: t.file ? { path: t.file, mimeType: t.mimeType, sha256: t.sha256 } : null,
        poster: t.poster,
        acceptedAt: new Date(t.acceptedAt).toISOString(),
        jobId: t.jobId,
      })),
    },
    null,
    2,
  )}\n`;
}

export function renderReadme(facts: PackageFacts): string {
  return (
    `Review package of "${facts.collectionName}", exported from Framewright on ${facts.exportedAt.toISOString()}: ` +
    `${facts.takes.length} takes in the collection's order. Open index.html in any web browser to see every take ` +
    `with its prompt, model, seed, marks (flag, stars, label) and notes (a note's rectangle is drawn on the frame). ` +
    `takes/ holds each take's file (numbered in order; a take marked "file not stored" has none), posters/ a still ` +
    `of each video, contact-sheet.png every take's thumbnail in one picture (left to right, top to bottom), and ` +
    `review.csv / review.json the same prompts, marks and notes for a spreadsheet or a script. ` +
    `Nothing here needs Framewright installed.\r\n`
  );
}
