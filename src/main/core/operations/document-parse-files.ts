import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DocumentParseResponse } from '../../../shared/api/document-parse.js';
import { safeSegment } from '../jobs/library-layout.js';

/** What a parse's `framewright.json` records besides the answer: the service, the source and the request. */
export interface ParseProvenance {
  model: string;
  /** The parsed file's name. */
  source: string;
  sha256: string;
  /** The request as sent (its asset id, or on the platform its job body). */
  request: Record<string, unknown>;
}

/**
 * Saves a document parse into the library, whichever backend parsed it:
 * `<library>/documents/<YYYY-MM-DD>/<parse id>/` with `result.json` (the answer), `document.md`
 * (its markdown) and `framewright.json` (where it came from); each file written whole, then renamed.
 */
export async function writeParseFiles(
  libraryDir: string,
  response: DocumentParseResponse,
  provenance: ParseProvenance,
): Promise<{ folder: string; files: string[] }> {
  const day = new Date().toISOString().slice(0, 10);
  const folder = path.join(libraryDir, 'documents', day, safeSegment(response.id, 'parse'));
  await mkdir(folder, { recursive: true });
  const files: string[] = [];
  const write = async (name: string, content: string) => {
    const target = path.join(folder, name);
    await writeFile(target + '.tmp', content, { mode: 0o600 });
    await rename(target + '.tmp', target);
    files.push(target);
  };
  await write('result.json', JSON.stringify(response, null, 2) + '\n');
  await write('document.md', response.markdown.endsWith('\n') ? response.markdown : response.markdown + '\n');
  await write(
    'framewright.json',
    JSON.stringify(
      {
        kind: 'document_parse',
        model: provenance.model,
        source: provenance.source,
        sha256: provenance.sha256,
        request: provenance.request,
        savedAt: new Date().toISOString(),
      },
      null,
      2,
    ) + '\n',
  );
  return { folder, files };
}
