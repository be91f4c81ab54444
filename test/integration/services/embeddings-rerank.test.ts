import { describe, expect, it } from 'vitest';
import { createEmbeddings } from '../../../src/main/core/operations/embeddings.js';
import { documentsFromFile, rerankDocuments } from '../../../src/main/core/operations/rerank.js';
import { astral, type ServicesWorld, useServicesWorld } from './helpers.js';

let world: ServicesWorld;
const { recorder, refusedLocally } = useServicesWorld((opened) => (world = opened));

describe('embeddings', () => {
  const embed = (inputs: string[]) =>
    createEmbeddings(world.core.journal, world.client, world.service('vector-embed'), inputs);

  it('embeds one text (sent as a string) and reports dimensions and a similarity of 1 with itself', async () => {
    const result = await embed(['a lighthouse at dusk']);
    expect(result.dimensions).toBe(256);
    expect(result.vectors).toHaveLength(1);
    expect(result.similarity[0]![0]).toBeCloseTo(1, 5);
    expect(recorder.sent).toEqual([{ method: 'POST', path: '/embeddings' }]);
  });

  it('embeds 64 texts and gives a symmetric cosine matrix', async () => {
    const texts = Array.from({ length: 64 }, (_, i) => `text number ${i} about ${i % 3 ? 'boats' : 'cats'}`);
    const result = await embed(texts);
    expect(result.vectors).toHaveLength(64);
    expect(result.similarity).toHaveLength(64);
    expect(result.similarity[3]![5]).toBeCloseTo(result.similarity[5]![3]!, 6);
    expect(result.similarity[10]![10]).toBeCloseTo(1, 5);
  });

  it('refuses 65 texts, an empty text and 8193 code points before sending; 8192 is sent', async () => {
    await refusedLocally(() => embed(Array.from({ length: 65 }, (_, i) => `t${i}`)), /At most 64 texts/);
    await refusedLocally(() => embed(['ok', '   ']), /Text 2 is empty/);
    await refusedLocally(() => embed([]), /at least one/);
    await refusedLocally(() => embed([astral(8193)]), /8193 characters; at most 8192/);
    const ok = await embed([astral(8192)]);
    expect(ok.vectors).toHaveLength(1);
  });
});

describe('rerank', () => {
  const rerank = (alias: string, query: string, documents: string[], topN?: number) =>
    rerankDocuments(world.core.journal, world.client, world.service(alias), { query, documents, topN });

  it('ranks documents by score and takes top_n where the model supports it', async () => {
    const docs = ['boats on the sea', 'a lighthouse on the coast at dusk', 'recipe for bread'];
    const all = await rerank('vector-rerank', 'lighthouse coast', docs);
    expect(all.results).toHaveLength(3);
    expect(all.results[0]!.index).toBe(1);
    expect(all.results[0]!.text).toBe(docs[1]);
    const scores = all.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const top = await rerank('vector-rerank', 'lighthouse coast', docs, 1);
    expect(top.results).toHaveLength(1);
  });

  it('refuses top_n where the model does not support it, and top_n 0, before sending', async () => {
    await refusedLocally(() => rerank('vector-rerank-lite', 'q', ['d'], 2), /does not support top_n/);
    await refusedLocally(() => rerank('vector-rerank', 'q', ['d'], 0), /at least 1/);
    expect((await rerank('vector-rerank-lite', 'q', ['d'])).results).toHaveLength(1);
  });

  it('query 1024 is sent, 1025 refused; an empty query refused', async () => {
    await refusedLocally(() => rerank('vector-rerank', astral(1025), ['d']), /1025 characters; at most 1024/);
    await refusedLocally(() => rerank('vector-rerank', '  ', ['d']), /query is empty/);
    expect((await rerank('vector-rerank', astral(1024), ['d'])).results).toHaveLength(1);
  });

  it('256 documents are sent, 257 refused; a document of 8193 refused', async () => {
    await refusedLocally(
      () =>
        rerank(
          'vector-rerank',
          'q',
          Array.from({ length: 257 }, (_, i) => `doc ${i}`),
        ),
      /At most 256 documents/,
    );
    await refusedLocally(() => rerank('vector-rerank', 'q', [astral(8193)]), /Document 1 has 8193/);
    await refusedLocally(() => rerank('vector-rerank', 'q', []), /at least one document/);
    const result = await rerank(
      'vector-rerank',
      'doc',
      Array.from({ length: 256 }, (_, i) => `doc ${i}`),
    );
    expect(result.results).toHaveLength(256);
  });

  it('a total of 65,536 characters is sent; 65,537 is refused before sending', async () => {
    // query 1024 + 7 documents of 8192 + one of 7168 = 65,536
    const docs = [...Array.from({ length: 7 }, () => astral(8192)), astral(7168)];
    const total = await rerank('vector-rerank', astral(1024), docs);
    expect(total.results).toHaveLength(8);
    await refusedLocally(
      () => rerank('vector-rerank', astral(1024), [...docs.slice(0, 7), astral(7169)]),
      /65537 characters together; at most 65536/,
    );
  });

  it('loads documents from text and CSV files', () => {
    expect(documentsFromFile('docs.txt', 'one\n\ntwo\r\nthree\n')).toEqual(['one', 'two', 'three']);
    expect(documentsFromFile('docs.csv', 'id,text\n1,"a, quoted ""doc"""\n2,plain\n')).toEqual([
      'a, quoted "doc"',
      'plain',
    ]);
    expect(documentsFromFile('docs.csv', 'first,x\nsecond,y\n')).toEqual(['first', 'second']);
  });
});
