import { describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../../../src/main/core/api-clients/api-errors.js';
import type { GrantChannel } from '../../../src/main/core/inter-app/grant-channel.js';
import { GrantPlaintextGoneError } from '../../../src/main/core/inter-app/production-grant-channel.js';
import { requestDigest } from '../../../src/main/core/inter-app/request-digest.js';
import { StoryboardHelperClient } from '../../../src/main/core/storyboards/storyboard-helper-client.js';

type Issue = Parameters<GrantChannel['issue']>[0];
type Send = Parameters<GrantChannel['send']>[0];
type Answer = Awaited<ReturnType<GrantChannel['send']>>;

const json = (status: number, value: unknown): Answer => ({
  status,
  headers: new Headers(),
  body: Buffer.from(JSON.stringify(value)),
});

function fakeChannel(
  onIssue: (input: Issue, n: number) => Promise<{ grant: string; expiresAt: string }>,
  onSend: (input: Send, n: number) => Promise<Answer>,
) {
  const issues: Issue[] = [];
  const sends: Send[] = [];
  const channel: GrantChannel = {
    issue: (input) => {
      issues.push(input);
      return onIssue(input, issues.length);
    },
    send: (input) => {
      sends.push(input);
      return onSend(input, sends.length);
    },
  };
  return { channel, issues, sends };
}

const LATER = new Date(Date.now() + 120_000).toISOString();
const RESULT = {
  title: 'Film',
  mediaUrl: 'https://studio.example.com/objects/a',
  mimeType: 'video/mp4',
  sha256: 'b'.repeat(64),
  byteSize: 5,
};
const WRITE = { replayed: false, write: { writeId: 'w1', boardId: 'brd', panelId: 'p1' } };

describe('StoryboardHelperClient', () => {
  it('retries a read with a NEW grant after a lost answer', async () => {
    const { channel, issues } = fakeChannel(
      async (_input, n) => ({ grant: `g${n}`, expiresAt: LATER }),
      async (_input, n) => {
        if (n === 1) throw new OutcomeUnknownError('read', 'cut');
        return json(200, { object: 'list', items: [] });
      },
    );
    expect(await new StoryboardHelperClient(channel).listBoards()).toEqual([]);
    expect(issues).toHaveLength(2);
    expect(issues[0]!.idempotencyKey).not.toBe(issues[1]!.idempotencyKey);
    expect(issues[0]!.requestDigest).toBe(issues[1]!.requestDigest);
  });

  it("replays a write's lost answer with the same bytes and the same grant, digested over those bytes", async () => {
    const { channel, issues, sends } = fakeChannel(
      async () => ({ grant: 'g1', expiresAt: LATER }),
      async (_input, n) => {
        if (n === 1) throw new OutcomeUnknownError('write', 'cut');
        return json(200, { ...WRITE, replayed: true });
      },
    );
    const written = await new StoryboardHelperClient(channel).writePanelResult(
      { boardId: 'brd', panelId: 'p1', result: RESULT },
      'act-1',
    );
    expect(written).toEqual({ replayed: true, writeId: 'w1' });
    expect(issues).toHaveLength(1);
    expect(sends).toHaveLength(2);
    expect(sends[1]!.body!.equals(sends[0]!.body!)).toBe(true);
    expect(sends[1]!.grant).toBe('g1');
    expect(issues[0]!.requestDigest).toBe(requestDigest(sends[0]!.body!));
    expect(issues[0]).toMatchObject({ idempotencyKey: 'act-1', scope: 'storyboard.write' });
  });

  it('sends the same write again with the grant it holds (the callee answers replayed)', async () => {
    const { channel, issues, sends } = fakeChannel(
      async () => ({ grant: 'g1', expiresAt: LATER }),
      async (_input, n) => json(200, { ...WRITE, replayed: n > 1 }),
    );
    const client = new StoryboardHelperClient(channel);
    const input = { boardId: 'brd', panelId: 'p1', result: RESULT };
    expect((await client.writePanelResult(input, 'act-1')).replayed).toBe(false);
    expect((await client.writePanelResult(input, 'act-1')).replayed).toBe(true);
    expect(issues).toHaveLength(1);
    expect(sends.map((s) => s.grant)).toEqual(['g1', 'g1']);
  });

  it("when the key's plaintext is gone: a panel already holding the content is a replay, else the next key writes", async () => {
    const board = (result: unknown) => ({
      boardId: 'brd',
      title: 'B',
      panels: [
        {
          panelId: 'p1',
          position: 1,
          prompt: 'x',
          image: { url: 'https://h/i.png', mimeType: 'image/png', sha256: 'c'.repeat(64), byteSize: 1 },
          result,
        },
      ],
    });
    const held = fakeChannel(
      async (input) => {
        if (input.idempotencyKey === 'act-1') throw new GrantPlaintextGoneError(LATER);
        return { grant: 'g', expiresAt: LATER };
      },
      async (input) =>
        input.method === 'GET' ? json(200, board({ ...RESULT, writeId: 'w0' })) : json(200, WRITE),
    );
    expect(
      await new StoryboardHelperClient(held.channel).writePanelResult(
        { boardId: 'brd', panelId: 'p1', result: RESULT },
        'act-1',
      ),
    ).toEqual({ replayed: true, writeId: 'w0' });
    expect(held.sends.filter((s) => s.method === 'POST')).toHaveLength(0);

    const empty = fakeChannel(
      async (input) => {
        if (input.idempotencyKey === 'act-1') throw new GrantPlaintextGoneError(LATER);
        return { grant: 'g', expiresAt: LATER };
      },
      async (input) => (input.method === 'GET' ? json(200, board(null)) : json(200, WRITE)),
    );
    expect(
      await new StoryboardHelperClient(empty.channel).writePanelResult(
        { boardId: 'brd', panelId: 'p1', result: RESULT },
        'act-1',
      ),
    ).toEqual({ replayed: false, writeId: 'w1' });
    expect(empty.issues.filter((i) => i.scope === 'storyboard.write').map((i) => i.idempotencyKey)).toEqual([
      'act-1',
      'act-1.1',
    ]);
  });

  it("turns the callee's refusal into a plain sentence", async () => {
    const { channel } = fakeChannel(
      async () => ({ grant: 'g', expiresAt: LATER }),
      async () => json(404, { code: 'board_not_found', message: 'No board', requestId: 'r' }),
    );
    await expect(new StoryboardHelperClient(channel).getBoard('nope')).rejects.toMatchObject({
      code: 'inter_app.not_found',
    });
  });
});
