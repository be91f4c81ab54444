import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ServiceEntry } from '../../../../shared/api/discovery.js';
import { DocumentParseResponse } from '../../../../shared/api/document-parse.js';
import { AppError } from '../../errors.js';
import { storedOutputOf } from '../../journal/outputs-repository.js';
import { probeMedia } from '../../media-tools/probe-media.js';
import { writeParseFiles } from '../../operations/document-parse-files.js';
import {
  validateParseOptions,
  type ParseOptions,
  type ParseResult,
} from '../../operations/document-parse.js';
import { checkProbedFile } from '../../operations/inputs.js';
import { InputLimitError } from '../../operations/service-common.js';
import { RUNTIME_PROFILE_ID, type RuntimeCreate } from './runtime-create.js';

export interface RuntimeDocumentParseDeps {
  /** Stores the document, signs its readUrl, commits and creates the `document_parse` job. */
  createMediaJob: RuntimeCreate['createMediaJob'];
  /** How long one parse waits for its job, in seconds (the engine's default when absent). */
  waitSeconds?: () => number;
}

/** `parseDocument` on the platform runtime: the same arguments after `(journal, client)`. */
export type RuntimeParseDocument = (
  service: ServiceEntry,
  filePath: string,
  libraryDir: string,
  options?: ParseOptions,
) => Promise<ParseResult>;

/** The public parse request of a document, without its asset (the runtime names it by `inputs[]`). */
function parseRequest(
  service: ServiceEntry,
  fileName: string,
  options: ParseOptions,
): Record<string, unknown> {
  const request: Record<string, unknown> = { model: service.modelAlias, original_name: fileName };
  if (options.language !== undefined) request.language = options.language;
  if (options.pages !== undefined) request.pages = options.pages;
  if (options.pageRange)
    request.page_range = { start_page: options.pageRange.start, end_page: options.pageRange.end };
  if (options.preset !== undefined) request.preset = options.preset;
  return request;
}

/**
 * Document parse on the platform (application-platform-api.md, section A: a `document_parse` job
 * of `POST /media/jobs`): the options are checked first, the document is stored in the person's
 * storage and sent as a signed `readUrl` (role `input_document`), the job is committed in the
 * journal and created by the engine, which downloads and verifies its JSON result into the
 * library; the answer is then saved as the public parse saves it (`writeParseFiles`). The job's key
 * is the document's content, model and options: parsing the same document the same way again
 * continues that job (or reads its result), never a second one.
 */
export function runtimeDocumentParse(deps: RuntimeDocumentParseDeps): RuntimeParseDocument {
  return async (service, filePath, libraryDir, options = {}) => {
    validateParseOptions(options);
    const probed = await probeMedia(filePath);
    if (probed.kind !== 'document')
      throw new InputLimitError(
        'file',
        `${probed.fileName} is ${probed.mimeType}; document parsing on the platform takes a document.`,
      );
    const file = checkProbedFile(service, probed, 'input_document');
    const request = parseRequest(service, file.fileName, options);
    const idempotencyKey =
      'document-parse-' +
      createHash('sha256')
        .update(JSON.stringify([service.modelAlias, file.sha256, request]), 'utf8')
        .digest('hex');
    const waitSeconds = deps.waitSeconds?.();
    const result = await deps.createMediaJob({
      profileId: RUNTIME_PROFILE_ID,
      service,
      serviceKind: 'document_parse',
      idempotencyKey,
      files: [file],
      bodyFor: ([sha256]) => ({ ...request, input_document_asset_id: sha256 }),
      ...(waitSeconds !== undefined ? { wait: { waitSeconds } } : {}),
    });
    if (result.state === 'failed')
      throw new AppError(
        'job.failed',
        `The document parse failed: ${result.job.errorMessage ?? result.job.errorCode ?? result.job.status}.`,
      );
    if (result.state === 'pending')
      throw new AppError(
        'job.pending',
        `The document parse is not finished yet (${result.reason}); parse the same document again to pick it up.`,
      );
    const output = storedOutputOf(result.job);
    if (!output) throw new AppError('job.no_result', 'The document parse job finished without a result.');
    const response = DocumentParseResponse.parse(JSON.parse(await readFile(output.localPath, 'utf8')));
    const { folder, files } = await writeParseFiles(libraryDir, response, {
      model: service.modelAlias,
      source: file.fileName,
      sha256: file.sha256,
      request: result.body,
    });
    return { response, assetId: response.documentAssetId, folder, files };
  };
}
