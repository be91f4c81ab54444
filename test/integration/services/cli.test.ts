import { execFile } from 'node:child_process';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { makeMp4, makePdf, makePng, makeWav } from '../simulator/fixtures.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const root = path.resolve(import.meta.dirname, '../../..');
let dir: string;
let sim: RunningSimulator;
let proxy: Server;
let proxyBase: string;
let proxyOrigin: string;
/** Requests that reached the service through the recording proxy (method and path). */
const seen: string[] = [];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: Record<string, unknown>;
}

/** Runs `framewright --json --base-url <proxy> …` with the simulator's token in FRAMEWRIGHT_API_KEY. */
function cli(args: string[], options: { key?: string; json?: boolean } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        path.join(root, 'bin/framewright.js'),
        '--data-dir',
        path.join(dir, 'data'),
        '--base-url',
        proxyBase,
        ...(options.json === false ? [] : ['--json']),
        ...args,
      ],
      {
        cwd: root,
        env: {
          ...process.env,
          FRAMEWRIGHT_API_KEY: options.key ?? sim.token,
          FRAMEWRIGHT_SIMULATOR_TIME_SCALE: '0.02',
        },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        let json: Record<string, unknown> = {};
        const line = stdout.trim().split('\n').at(-1) ?? '';
        try {
          json = JSON.parse(line) as Record<string, unknown>;
        } catch {
          json = {};
        }
        resolve({ code, stdout, stderr, json });
      },
    );
  });
}

const file = (name: string, content: Buffer | string) => {
  const target = path.join(dir, name);
  writeFileSync(target, content);
  return target;
};
const sentBesidesDiscovery = () => seen.filter((s) => s !== 'GET /v1/services');

beforeAll(async () => {
  dir = tempFolder('fw-cli-services-');
  sim = await openSimulator({ timeScale: 0.02 });
  const target = new URL(sim.baseUrl);
  proxy = createServer((req, res) => {
    seen.push(`${req.method} ${new URL(req.url!, 'http://x').pathname}`);
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        // a reverse proxy that answers with its own origin in jobUrl/contentUrl and Location, as a
        // gateway does (Framewright never sends the key to a URL on another origin)
        const headers = { ...answer.headers };
        if (headers.location) headers.location = headers.location.replace(target.origin, proxyOrigin);
        if (!String(headers['content-type']).includes('application/json')) {
          res.writeHead(answer.statusCode!, headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.from(
            Buffer.concat(chunks).toString('utf8').split(target.origin).join(proxyOrigin),
          );
          res.writeHead(answer.statusCode!, { ...headers, 'content-length': String(body.length) });
          res.end(body);
        });
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as { port: number }).port;
  proxyOrigin = `http://127.0.0.1:${port}`;
  proxyBase = `${proxyOrigin}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await sim.close();
});
beforeEach(() => {
  seen.length = 0;
  sim.setScenario(null);
});

describe('framewright playground commands', () => {
  it('embed: texts to dimensions and a similarity matrix; 65 texts exit 2 with nothing sent', async () => {
    const ok = await cli(['embed', 'one', 'two', 'three']);
    expect(ok.code).toBe(0);
    expect(ok.json).toMatchObject({ model: 'vector-embed', count: 3, dimensions: 256 });
    expect((ok.json.similarity as number[][])[1]![1]).toBeCloseTo(1, 5);
    seen.length = 0;
    const many = await cli(['embed', ...Array.from({ length: 65 }, (_, i) => `t${i}`)]);
    expect(many.code).toBe(2);
    expect((many.json.error as { message: string }).message).toMatch(/At most 64 texts/);
    expect(seen).toEqual([]);
  });

  it('rerank: documents from a CSV, top_n; 257 documents exit 2 with nothing sent', async () => {
    const csv = file('docs.csv', 'id,text\n1,boats at sea\n2,"a lighthouse, at dusk"\n3,bread\n');
    const ok = await cli(['rerank', '--query', 'lighthouse', '--docs-file', csv, '--top-n', '2']);
    expect(ok.code).toBe(0);
    const results = ok.json.results as { index: number; text: string }[];
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ index: 1, text: 'a lighthouse, at dusk' });
    seen.length = 0;
    const txt = file('many.txt', Array.from({ length: 257 }, (_, i) => `doc ${i}`).join('\n'));
    const tooMany = await cli(['rerank', '--query', 'q', '--docs-file', txt]);
    expect(tooMany.code).toBe(2);
    expect(seen).toEqual([]);
  });

  it('chat: a streamed reply in plain mode, a conversation continued and searchable in --json', async () => {
    const plain = await cli(['chat', 'Describe', 'a', 'harbour'], { json: false });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('You wrote: "Describe a harbour"');
    const id = /\(conversation (conv_[^)]+)\)/.exec(plain.stdout)![1]!;
    const next = await cli(['chat', '--conversation', id, 'and at night?']);
    expect(next.json).toMatchObject({ conversationId: id, finishReason: 'stop' });
    expect(next.json.reply).toContain('The conversation has 3 messages');
    const found = await cli(['chat', '--search', 'harbour']);
    expect((found.json.conversations as { id: string }[]).map((c) => c.id)).toEqual([id]);
    seen.length = 0;
    const refused = await cli(['chat', '--model', 'atlas-vision', '--param', 'top_p=0.5', 'hi']);
    expect(refused.code).toBe(2);
    expect(sentBesidesDiscovery()).toEqual([]);
  });

  it('ocr: the model JSON and its boxes', async () => {
    const ok = await cli(['ocr', file('page.png', makePng(200, 100)), '--task', 'ocr']);
    expect(ok.code).toBe(0);
    expect(ok.json).toMatchObject({
      model: 'glyph-ocr',
      response: { text: expect.stringContaining('SIMULATED OCR') },
    });
    expect((ok.json.boxes as unknown[]).length).toBeGreaterThan(0);
  });

  it('transcribe: SRT to a file; 25 MiB + 1 exits 2 with nothing sent; language only where supported', async () => {
    const out = path.join(dir, 'talk.srt');
    const ok = await cli([
      'transcribe',
      file('talk.wav', makeWav(7)),
      '--format',
      'srt',
      '--out',
      out,
      '--language',
      'en',
    ]);
    expect(ok.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^1\n00:00:00,000 --> 00:00:05,000\n/);
    const big = file('big.wav', makeWav(0.1));
    truncateSync(big, 25 * 1024 * 1024 + 1);
    seen.length = 0;
    const tooBig = await cli(['transcribe', big]);
    expect(tooBig.code).toBe(2);
    expect(seen).toEqual([]);
    const mini = await cli([
      'transcribe',
      file('t2.wav', makeWav(1)),
      '--model',
      'echo-transcribe-mini',
      '--language',
      'en',
    ]);
    expect(mini.code).toBe(2);
    expect(sentBesidesDiscovery()).toEqual([]);
  });

  it('parse: artifacts saved to the library; page 501 exits 2 with nothing sent', async () => {
    const pdf = file('report.pdf', makePdf());
    const ok = await cli([
      'parse',
      pdf,
      '--page-range',
      '1-3',
      '--language',
      'en',
      '--preset',
      'hybrid-high',
    ]);
    expect(ok.code).toBe(0);
    expect(ok.json.pageCount).toBe(3);
    expect((ok.json.files as string[]).every((f) => f.startsWith(path.join(dir, 'data', 'library')))).toBe(
      true,
    );
    seen.length = 0;
    expect((await cli(['parse', pdf, '--pages', '501'])).code).toBe(2);
    expect(seen).toEqual([]);
  });

  it('speak: voices, speech with a speaker into the library; 601 characters exit 2', async () => {
    const voices = await cli(['speak', '--voices']);
    expect((voices.json.voices as { voiceId: string }[]).map((v) => v.voiceId)).toContain('amber');
    const ok = await cli([
      'speak',
      'Hello from the CLI.',
      '--voice-mode',
      'custom_voice',
      '--speaker',
      'amber',
    ]);
    expect(ok.code).toBe(0);
    expect(ok.json).toMatchObject({ state: 'succeeded', status: 'succeeded' });
    expect((ok.json.outputs as { verified: boolean }[])[0]!.verified).toBe(true);
    seen.length = 0;
    const long = await cli(['speak', 'x'.repeat(601)]);
    expect(long.code).toBe(2);
    expect(seen.filter((s) => s.startsWith('POST'))).toEqual([]);
    const foley = await cli(['audio', '--video', file('scene.mp4', makeMp4(1)), '--prompt', 'rain']);
    expect(foley.json).toMatchObject({ state: 'succeeded', model: 'cadence-foley' });
  });

  it('image: a set of images; a failed job exits 1; 402 exits 4; a wrong key exits 3', async () => {
    const ok = await cli(['image', 'a lighthouse', '--count', '2', '--orientation', 'portrait']);
    expect(ok.code).toBe(0);
    expect(ok.json.outputs as unknown[]).toHaveLength(2);
    sim.setScenario('job_failed');
    const failed = await cli(['image', 'fails']);
    expect([failed.code, failed.json.state]).toEqual([1, 'failed']);
    sim.setScenario('insufficient_balance');
    expect((await cli(['image', 'no money'])).code).toBe(4);
    expect((await cli(['embed', 'no money'])).code).toBe(4);
    sim.setScenario(null);
    expect((await cli(['embed', 'who am i'], { key: 'wrong-key' })).code).toBe(3);
    expect((await cli(['image', 'who am i'], { key: 'wrong-key' })).code).toBe(3);
    seen.length = 0;
    expect((await cli(['image', 'x', '--count', '0'])).code).toBe(2);
    expect(seen.filter((s) => s.startsWith('POST'))).toEqual([]);
  });

  it('calls: the billed synchronous calls, newest first, filtered; a refused input leaves none', async () => {
    await cli(['embed', 'calls one', 'calls two']);
    sim.setScenario('insufficient_balance');
    expect((await cli(['embed', 'calls three'])).code).toBe(4);
    sim.setScenario(null);
    expect((await cli(['embed', ...Array.from({ length: 65 }, (_, i) => `t${i}`)])).code).toBe(2);
    const listed = await cli(['calls', '--operation', 'embeddings', '--limit', '2']);
    expect(listed.code).toBe(0);
    const data = listed.json.data as Record<string, unknown>[];
    expect(data).toMatchObject([
      { operation: 'embeddings', state: 'failed', statusCode: 402, requestId: expect.any(String) },
      {
        operation: 'embeddings',
        state: 'succeeded',
        requestId: expect.any(String),
        request: { inputCount: 2 },
        response: { count: 2, dimensions: 256 },
      },
    ]);
    expect(listed.stdout).not.toContain('calls one');
    const plain = await cli(['calls', '--limit', '1'], { json: false });
    expect(plain.stdout).toMatch(/embeddings\s+vector-embed\s+failed\s+402/);
    expect((await cli(['calls', '--operation', 'chat'])).code).toBe(2);
  });
});
