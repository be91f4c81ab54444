import { existsSync, readFileSync, truncateSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument, parsePageRange } from '../../../src/main/core/operations/document-parse.js';
import { runOcr } from '../../../src/main/core/operations/ocr.js';
import { InputLimitError } from '../../../src/main/core/operations/service-common.js';
import { transcribeFile, transcriptExports } from '../../../src/main/core/operations/transcription.js';
import { TRANSCRIPTION_MAX_BYTES } from '../../../src/shared/api/transcription.js';
import { makePdf, makePng, makeWav } from '../simulator/fixtures.js';
import { loseCachedAsset, type ServicesWorld, useServicesWorld } from './helpers.js';

let world: ServicesWorld;
const { recorder, refusedLocally } = useServicesWorld((opened) => (world = opened));

/** A WAV header declaring `bytes` of PCM, padded to exactly `bytes` (sparse file). */
function wavOfSize(name: string, bytes: number): string {
  const file = world.file(name, makeWav(0.5));
  truncateSync(file, bytes);
  return file;
}

describe('OCR', () => {
  it('uploads an image and returns the model JSON as it came, with its bbox boxes', async () => {
    const png = world.file('page.png', makePng(320, 200));
    const result = await runOcr(world.core.journal, world.client, world.service('glyph-ocr'), png, {
      task: 'ocr',
    });
    expect(result.inputField).toBe('input_image_asset_id');
    expect(result.raw).toMatchObject({ model: 'glyph-ocr', text: expect.stringContaining('SIMULATED OCR') });
    expect(result.boxes.length).toBeGreaterThan(0);
    expect(result.boxes[0]!.bbox).toHaveLength(4);
    expect(recorder.sent.map((c) => c.path)).toEqual(['/assets/input', '/ocr']);
    // the same bytes again reuse the still-valid asset from the journal: no second upload
    recorder.reset();
    await runOcr(world.core.journal, world.client, world.service('glyph-ocr'), png);
    expect(recorder.sent.map((c) => c.path)).toEqual(['/ocr']);
  });

  it('a cached asset the service no longer knows (404 asset_not_found) is forgotten and uploaded again once', async () => {
    const png = world.file('lost.png', makePng(96, 64));
    const first = await runOcr(world.core.journal, world.client, world.service('glyph-ocr'), png);
    loseCachedAsset(world, 'glyph-ocr', first.assetId, 'asset-lost');
    recorder.reset();
    const again = await runOcr(world.core.journal, world.client, world.service('glyph-ocr'), png);
    expect(recorder.sent.map((c) => c.path)).toEqual(['/ocr', '/assets/input', '/ocr']);
    expect(again.assetId).not.toBe('asset-lost');
    expect(world.core.journal.uploads.get(world.client.profileId, 'glyph-ocr', 'asset-lost')).toBeUndefined();
  });

  it('reads a document where the service states support, with a metering page count', async () => {
    const pdf = world.file('doc.pdf', makePdf());
    const result = await runOcr(world.core.journal, world.client, world.service('glyph-ocr'), pdf, {
      pages: 2,
    });
    expect(result.inputField).toBe('document_asset_id');
    // pages meters; it does not select pages
    expect(result.raw.usage).toMatchObject({ pages: 2, input: 'document_asset_id' });
  });

  it('refuses an unknown task, pages 0, a non-image, and a document where support is not stated', async () => {
    const png = world.file('t.png', makePng(8, 8));
    const ocr = world.service('glyph-ocr');
    await refusedLocally(
      () => runOcr(world.core.journal, world.client, ocr, png, { task: 'translate' }),
      /task must be one of ocr, layout/,
    );
    await refusedLocally(
      () => runOcr(world.core.journal, world.client, ocr, png, { pages: 0 }),
      /at least 1/,
    );
    const wav = world.file('t.wav', makeWav(0.2));
    await refusedLocally(() => runOcr(world.core.journal, world.client, ocr, wav), /OCR takes an image/);
    const imageOnly = { ...ocr, apiUsageContract: { tasks: ['ocr'] } };
    const pdf = world.file('t.pdf', makePdf());
    await refusedLocally(
      () => runOcr(world.core.journal, world.client, imageOnly, pdf),
      /does not state support for documents/,
    );
  });

  it('an image of 16 MiB is sent, 16 MiB + 1 refused before uploading', async () => {
    const ocr = world.service('glyph-ocr');
    const at = world.file('at.png', makePng(16, 16, [1, 2, 3], 16 * 1024 * 1024));
    const past = world.file('past.png', makePng(16, 16, [1, 2, 4], 16 * 1024 * 1024 + 1));
    await refusedLocally(
      () => runOcr(world.core.journal, world.client, ocr, past),
      /16777217 bytes; glyph-ocr takes at most 16777216/,
    );
    const result = await runOcr(world.core.journal, world.client, ocr, at);
    expect(result.boxes.length).toBeGreaterThan(0);
  });
});

describe('document parse', () => {
  const parse = (options: Parameters<typeof parseDocument>[5]) =>
    parseDocument(
      world.core.journal,
      world.client,
      world.service('folio-parse'),
      world.file('report.pdf', makePdf()),
      world.core.libraryDir,
      options,
    );

  it('parses a page range and saves the structured artifacts to the library', async () => {
    const result = await parse({ language: 'en', pageRange: { start: 2, end: 4 }, preset: 'hybrid-high' });
    expect(result.response.pageCount).toBe(3);
    expect(result.response.pages.map((p) => p.page)).toEqual([2, 3, 4]);
    expect(result.folder.startsWith(world.core.libraryDir)).toBe(true);
    const saved = JSON.parse(readFileSync(result.files[0]!, 'utf8')) as { id: string };
    expect(saved.id).toBe(result.response.id);
    expect(readFileSync(result.files[1]!, 'utf8')).toContain('## Page 3');
    expect(existsSync(result.files[2]!)).toBe(true);
  });

  it('a cached document the service no longer knows is uploaded again once, then parsed', async () => {
    const first = await parse({ pages: 1 });
    loseCachedAsset(world, 'folio-parse', first.assetId, 'doc-lost');
    recorder.reset();
    const again = await parse({ pages: 1 });
    expect(recorder.sent.map((c) => c.path)).toEqual([
      '/documents/parse',
      '/assets/input',
      '/documents/parse',
    ]);
    expect(again.assetId).not.toBe('doc-lost');
    expect(again.response.pageCount).toBe(1);
  });

  it('pages 1 and 500 are sent; 0 and 501 refused before uploading', async () => {
    expect((await parse({ pages: 1 })).response.pageCount).toBe(1);
    expect((await parse({ pages: 500, language: 'ch' })).response.pageCount).toBe(500);
    await refusedLocally(() => parse({ pages: 0 }), /pages must be a whole number from 1 to 500 \(got 0\)/);
    await refusedLocally(() => parse({ pages: 501 }), /got 501/);
    await refusedLocally(() => parse({ pageRange: { start: 0, end: 3 } }), /start_page/);
    await refusedLocally(() => parse({ pageRange: { start: 1, end: 501 } }), /end_page/);
    await refusedLocally(() => parse({ pageRange: { start: 5, end: 2 } }), /must not be after/);
    await refusedLocally(() => parse({ language: 'fr' }), /ch or en/);
    await refusedLocally(() => parse({ preset: 'fast' }), /hybrid-medium or hybrid-high/);
    expect((await parse({ pageRange: { start: 500, end: 500 } })).response.pages[0]!.page).toBe(500);
  });

  it('reads page ranges as N or N-M', () => {
    expect(parsePageRange('3')).toEqual({ start: 3, end: 3 });
    expect(parsePageRange('2-5')).toEqual({ start: 2, end: 5 });
    expect(() => parsePageRange('a-b')).toThrow(InputLimitError);
  });
});

describe('transcription', () => {
  const echo = () => world.service('echo-transcribe');

  it('sends a WAV as multipart and returns segments with timestamps, and TXT/SRT/VTT', async () => {
    const wav = world.file('speech.wav', makeWav(12));
    const result = await transcribeFile(world.core.journal, world.client, echo(), wav, {
      language: 'en',
      responseFormat: 'verbose_json',
    });
    expect(result.sentAs).toBe('audio/wav');
    expect(result.response.duration).toBeCloseTo(12, 1);
    expect(result.response.segments.map((s) => [s.start, s.end])).toEqual([
      [0, 5],
      [5, 10],
      [10, 12],
    ]);
    expect(result.exports.srt).toMatch(/^1\n00:00:00,000 --> 00:00:05,000\n\S/);
    expect(result.exports.vtt).toMatch(/^WEBVTT\n\n00:00:00\.000 --> 00:00:05\.000\n/);
    expect(result.exports.txt.trim()).toBe(result.response.text.trim());
    expect(recorder.sent).toEqual([{ method: 'POST', path: '/audio/transcriptions' }]);
  });

  it('sends application/octet-stream only for an unrecognised file with a supported extension', async () => {
    const raw = world.file('mystery.ogg', Buffer.alloc(4096, 7));
    const mini = world.service('echo-transcribe-mini');
    // it was sent as octet-stream (the server then sniffs bytes that are no audio: 415)
    const error = await transcribeFile(world.core.journal, world.client, mini, raw).catch((e: unknown) => e);
    expect((error as { status?: number }).status).toBe(415);
    expect(recorder.sent).toEqual([{ method: 'POST', path: '/audio/transcriptions' }]);
    await refusedLocally(
      () =>
        transcribeFile(
          world.core.journal,
          world.client,
          mini,
          world.file('mystery.bin', Buffer.alloc(4096, 7)),
        ),
      /not a recognised audio file/,
    );
    await refusedLocally(
      () => transcribeFile(world.core.journal, world.client, mini, world.file('pic.wav', makePng(8, 8))),
      /image\/png, which is not accepted/,
    );
    await refusedLocally(
      () => transcribeFile(world.core.journal, world.client, mini, world.file('empty.wav', '')),
      /is empty/,
    );
  });

  it('sends language and response_format only where the model supports them', async () => {
    const wav = world.file('short.wav', makeWav(1));
    const mini = world.service('echo-transcribe-mini');
    await refusedLocally(
      () => transcribeFile(world.core.journal, world.client, mini, wav, { language: 'en' }),
      /does not take a language/,
    );
    await refusedLocally(
      () => transcribeFile(world.core.journal, world.client, mini, wav, { responseFormat: 'json' }),
      /does not take a response_format/,
    );
    await refusedLocally(
      () => transcribeFile(world.core.journal, world.client, echo(), wav, { language: 'jp' }),
      /language must be one of en, zh, fr, de, es/,
    );
    await refusedLocally(
      () => transcribeFile(world.core.journal, world.client, echo(), wav, { responseFormat: 'srt' }),
      /response_format must be one of json, verbose_json/,
    );
    expect((await transcribeFile(world.core.journal, world.client, mini, wav)).response.language).toBe('en');
  });

  it('25 MiB is sent; 25 MiB + 1 is refused before sending', async () => {
    const at = wavOfSize('at-limit.wav', TRANSCRIPTION_MAX_BYTES);
    const result = await transcribeFile(world.core.journal, world.client, echo(), at);
    expect(result.sentAs).toBe('audio/wav');
    const past = wavOfSize('past-limit.wav', TRANSCRIPTION_MAX_BYTES + 1);
    await refusedLocally(
      () => transcribeFile(world.core.journal, world.client, echo(), past),
      /26214401 bytes; transcription takes one file of at most 26214400/,
    );
  });

  it('formats exports with hours and milliseconds', () => {
    const out = transcriptExports({
      text: 'x',
      segments: [{ id: 0, start: 3661.5, end: 3662.25, text: ' hi ' }],
    });
    expect(out.srt).toBe('1\n01:01:01,500 --> 01:01:02,250\nhi\n');
    expect(out.vtt).toBe('WEBVTT\n\n01:01:01.500 --> 01:01:02.250\nhi\n');
  });
});
