import type { ServiceEntry } from '../../../shared/api/discovery.js';
import { DOCUMENT_PAGE_MAX, DocumentParseResponse } from '../../../shared/api/document-parse.js';
import type { Journal } from '../journal/open-journal.js';
import { probeMedia } from '../media-tools/probe-media.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { writeParseFiles } from './document-parse-files.js';
import { checkProbedFile, withUploadedInput } from './inputs.js';
import { callAnswer, InputLimitError } from './service-common.js';
import { WORKING_CALL_TIMEOUT_MS } from '../../../shared/wait-defaults.js';

export const PARSE_LANGUAGES = ['ch', 'en'] as const;
export const PARSE_PRESETS = ['hybrid-medium', 'hybrid-high'] as const;

export interface ParseOptions {
  language?: string;
  pages?: number;
  pageRange?: { start: number; end: number };
  preset?: string;
}

export interface ParseResult {
  response: DocumentParseResponse;
  assetId: string;
  /** The folder in the library holding result.json and document.md. */
  folder: string;
  files: string[];
}

function checkPage(field: string, value: number): void {
  if (!Number.isInteger(value) || value < 1 || value > DOCUMENT_PAGE_MAX)
    throw new InputLimitError(
      field,
      `${field} must be a whole number from 1 to ${DOCUMENT_PAGE_MAX} (got ${value}).`,
    );
}

/** Checks the options before anything is uploaded or sent (pages and page range 1..500). */
export function validateParseOptions(options: ParseOptions): void {
  if (options.language !== undefined && !(PARSE_LANGUAGES as readonly string[]).includes(options.language))
    throw new InputLimitError('language', `language must be ch or en (got ${options.language}).`);
  if (options.preset !== undefined && !(PARSE_PRESETS as readonly string[]).includes(options.preset))
    throw new InputLimitError(
      'preset',
      `preset must be ${PARSE_PRESETS.join(' or ')} (got ${options.preset}).`,
    );
  if (options.pages !== undefined) checkPage('pages', options.pages);
  if (options.pageRange) {
    checkPage('page_range.start_page', options.pageRange.start);
    checkPage('page_range.end_page', options.pageRange.end);
    if (options.pageRange.start > options.pageRange.end)
      throw new InputLimitError('page_range', 'The first page of the range must not be after its last page.');
  }
}

/** "3" → one page; "2-5" → a range. */
export function parsePageRange(text: string): { start: number; end: number } {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(text);
  if (!match) throw new InputLimitError('page_range', `A page range is "N" or "N-M" (got "${text}").`);
  const start = Number(match[1]);
  return { start, end: match[2] ? Number(match[2]) : start };
}

/**
 * Uploads a document (reusing a still-valid asset), `POST /documents/parse`, and saves the
 * structured artifacts into the library: `<library>/documents/<YYYY-MM-DD>/<parse id>/`.
 */
export async function parseDocument(
  journal: Journal,
  client: PublicApiClient,
  service: ServiceEntry,
  filePath: string,
  libraryDir: string,
  options: ParseOptions = {},
): Promise<ParseResult> {
  validateParseOptions(options);
  const probed = await probeMedia(filePath);
  const role = probed.kind === 'image' ? 'input_image' : 'input_document';
  if (probed.kind !== 'document' && probed.kind !== 'image')
    throw new InputLimitError(
      'file',
      `${probed.fileName} is ${probed.mimeType}; document parsing takes a document.`,
    );
  const file = checkProbedFile(service, probed, role);
  const { response, body, asset } = await withUploadedInput(journal, client, service, file, async (asset) => {
    const body: Record<string, unknown> = {
      model: service.modelAlias,
      input_document_asset_id: asset.assetId,
      original_name: file.fileName,
    };
    if (options.language !== undefined) body.language = options.language;
    if (options.pages !== undefined) body.pages = options.pages;
    if (options.pageRange)
      body.page_range = { start_page: options.pageRange.start, end_page: options.pageRange.end };
    if (options.preset !== undefined) body.preset = options.preset;
    const { body: response } = await callAnswer(
      client,
      () => client.parseDocument(body, { timeoutMs: WORKING_CALL_TIMEOUT_MS }),
      DocumentParseResponse,
      'Document parse',
    );
    return { response, body, asset };
  });
  const { folder, files } = await writeParseFiles(libraryDir, response, {
    model: service.modelAlias,
    source: file.fileName,
    sha256: file.sha256,
    request: body,
  });
  return { response, assetId: asset.assetId, folder, files };
}
