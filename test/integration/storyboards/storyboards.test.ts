/**
 * Storyboards in, films out (issue 29) on the platform world: the backend calls the simulator's
 * storyboard-helper as the signed-in person with grants issued by the session service for each
 * exact request.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionServiceClient } from '../../../src/main/core/api-clients/runtime/session-service-client.js';
import type { GrantChannel } from '../../../src/main/core/inter-app/grant-channel.js';
import { ProductionGrantChannel } from '../../../src/main/core/inter-app/production-grant-channel.js';
import { requestDigest } from '../../../src/main/core/inter-app/request-digest.js';
import { StoryboardHelperClient } from '../../../src/main/core/storyboards/storyboard-helper-client.js';
import type { SequenceView } from '../../../src/shared/bridge/contract.js';
import type {
  SentToBoard,
  SequenceBoardLink,
  StoryboardSummary,
} from '../../../src/shared/bridge/domains/storyboards.js';
import type { StudioDraft } from '../../../src/shared/bridge/domains/studio.js';
import { FIXED_LOCAL_TEST_TOKEN } from '../../../src/simulator/identities.js';
import { openPlatformWorld, type PlatformWorld } from '../../support/worlds/platform-world.js';
import { grantIssueProxy } from './grant-proxy.js';
import { until } from '../../support/until.js';

const BOARD = 'brd_sim_lighthouse';

interface InspectedBoard {
  panels: { panelId: string; position: number; prompt: string; image: { sha256: string } }[];
  writes: {
    writeId: string;
    panelId: string;
    idempotencyKey: string;
    requestDigest: string;
    result: { sha256: string };
  }[];
}

function helperUrl(rig: PlatformWorld): string {
  return rig.settings.storyboardHelperUrl!;
}

async function inspect(rig: PlatformWorld, boardId: string): Promise<InspectedBoard> {
  const answer = await fetch(`${helperUrl(rig)}/_simulator/boards/${boardId}`, {
    headers: { Authorization: `Bearer ${FIXED_LOCAL_TEST_TOKEN}` },
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as InspectedBoard;
}

/** Every file under a folder, as text (for secret scans). */
function filesText(dir: string): string {
  let out = '';
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const info = statSync(file);
    if (info.isDirectory()) out += filesText(file);
    else if (info.size < 64 * 1024 * 1024) out += readFileSync(file).toString('latin1');
  }
  return out;
}

type Imported = { sequence: SequenceView; link: SequenceBoardLink; reused: boolean };

describe('storyboards on the platform', () => {
  it("imports the member's board as one i2v shot per panel (prompts, first frames = the panel PNGs), once", async () => {
    const rig = await openPlatformWorld({ storyboardHelper: true });
    const member = await rig.open('member');
    const info = await member.call<{ capabilities: { storyboards: boolean } }>('app.info');
    expect(info.capabilities.storyboards).toBe(true);

    const { boards } = await member.call<{ boards: StoryboardSummary[] }>('storyboards.list');
    expect(boards.map((b) => b.boardId)).toEqual([BOARD]);
    expect(boards[0]).toMatchObject({ panelCount: 3, importedSequenceId: null });

    const expected = await inspect(rig, BOARD);
    const first = await member.call<Imported>('storyboards.import', { boardId: BOARD });
    expect(first.reused).toBe(false);
    expect(first.sequence.shots).toHaveLength(3);
    const panels = [...expected.panels].sort((a, b) => a.position - b.position);
    for (const [i, shot] of first.sequence.shots.entries()) {
      expect(shot.prompt).toBe(panels[i]!.prompt);
      expect(shot.generationMode).toBe('i2v');
      expect(first.link.panels[shot.shotId]).toBe(panels[i]!.panelId);
      const draft = await member.call<StudioDraft>('drafts.get', { draftId: shot.draftId });
      expect(draft.form.firstFrame?.sha256).toBe(panels[i]!.image.sha256);
      expect(draft.submittedAt).toBeNull(); // nothing generated
    }
    expect(first.link).toMatchObject({ boardId: BOARD, title: 'The lighthouse keeper' });

    const again = await member.call<Imported>('storyboards.import', { boardId: BOARD });
    expect(again.reused).toBe(true);
    expect(again.sequence.sequenceId).toBe(first.sequence.sequenceId);
    expect((await member.call<SequenceView[]>('sequences.list')).length).toBe(1);
    const listed = await member.call<{ boards: StoryboardSummary[] }>('storyboards.list');
    expect(listed.boards[0]!.importedSequenceId).toBe(first.sequence.sequenceId);
    const { link } = await member.call<{ link: SequenceBoardLink | null }>('storyboards.linkOf', {
      sequenceId: first.sequence.sequenceId,
    });
    expect(link).toEqual(first.link);

    // deleted, the board may be imported again into a new sequence
    await member.call('sequences.delete', { sequenceId: first.sequence.sequenceId });
    const third = await member.call<Imported>('storyboards.import', { boardId: BOARD });
    expect(third.reused).toBe(false);
    expect(third.sequence.sequenceId).not.toBe(first.sequence.sequenceId);
  });

  it("never lists or imports another person's board", async () => {
    const rig = await openPlatformWorld({ storyboardHelper: true });
    const manager = await rig.open('manager');
    const { boards } = await manager.call<{ boards: StoryboardSummary[] }>('storyboards.list');
    expect(boards.map((b) => b.boardId)).toEqual(['brd_sim_launch_teaser']);
    const refused = await manager.invoke('storyboards.import', { boardId: BOARD });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('inter_app.not_found');
    expect(await manager.call<SequenceView[]>('sequences.list')).toEqual([]);
  });

  it('is off where Storyboard Helper is not configured', async () => {
    const rig = await openPlatformWorld();
    const member = await rig.open('member');
    const info = await member.call<{ capabilities: { storyboards: boolean } }>('app.info');
    expect(info.capabilities.storyboards).toBe(false);
    const refused = await member.invoke('storyboards.list');
    expect(refused.ok).toBe(false);
  });

  it('digests exactly the bytes sent: one changed byte under the same grant is refused with APP_GRANT_NOT_FOUND', async () => {
    const rig = await openPlatformWorld({ storyboardHelper: true });
    const member = await rig.open('member');
    const { sessionId } = await rig.sessionOf(member);
    const production = new ProductionGrantChannel({
      sessionService: new SessionServiceClient({
        sessionBaseUrl: rig.settings.sessionBaseUrl,
        appKey: rig.settings.appKey,
        appCredential: async () => rig.settings.appCredential,
      }),
      runtimeSessionId: async () => sessionId,
      businessBaseUrl: helperUrl(rig),
      appLabel: 'Storyboard Helper',
    });
    const issued: { digest: string; grant: string }[] = [];
    const sent: { body?: Buffer; grant: string }[] = [];
    const spy: GrantChannel = {
      async issue(input) {
        const grant = await production.issue(input);
        issued.push({ digest: input.requestDigest, grant: grant.grant });
        return grant;
      },
      async send(input) {
        sent.push({ body: input.body, grant: input.grant });
        return production.send(input);
      },
    };
    const client = new StoryboardHelperClient(spy);
    const result = {
      title: 'Test film',
      mediaUrl: 'https://studio.example.com/objects/x',
      mimeType: 'video/mp4',
      sha256: 'a'.repeat(64),
      byteSize: 10,
    };
    const written = await client.writePanelResult(
      { boardId: BOARD, panelId: 'pnl_sim_lighthouse_1', result },
      'fw-test-digest-1',
    );
    expect(written.replayed).toBe(false);
    const body = sent.at(-1)!.body!;
    expect(issued.at(-1)!.digest).toBe(requestDigest(body));

    const tampered = Buffer.from(body);
    const at = tampered.indexOf('Test film');
    tampered[at] = 'B'.charCodeAt(0);
    const refused = await production.send({
      method: 'POST',
      path: '/panel-results',
      body: tampered,
      grant: issued.at(-1)!.grant,
    });
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body.toString('utf8'))).toMatchObject({ code: 'APP_GRANT_NOT_FOUND' });
    expect((await inspect(rig, BOARD)).writes).toHaveLength(1);

    // the callee resolves the same grant for exactly that digest (resolveGrant, as lane I2 uses it)
    const helper = rig.sim.platform.apps.find((a) => a.appKey === 'storyboard-helper')!;
    const asCallee = new SessionServiceClient({
      sessionBaseUrl: rig.settings.sessionBaseUrl,
      appKey: helper.appKey,
      appCredential: async () => helper.appCredential,
    });
    const resolved = await asCallee.resolveGrant({
      grant: issued.at(-1)!.grant,
      scope: 'storyboard.write',
      requestDigest: requestDigest(body),
    });
    expect(resolved).toMatchObject({
      callerAppKey: rig.settings.appKey,
      calleeAppKey: 'storyboard-helper',
      idempotencyKey: 'fw-test-digest-1',
    });
    expect(JSON.stringify(resolved)).not.toContain(issued.at(-1)!.grant);
    await expect(
      asCallee.resolveGrant({
        grant: issued.at(-1)!.grant,
        scope: 'storyboard.write',
        requestDigest: requestDigest(tampered),
      }),
    ).rejects.toMatchObject({ apiCode: 'APP_GRANT_NOT_FOUND', status: 404 });
  });

  it('replays an issue whose answer was lost with the same key and body, and the same fact answers', async () => {
    let proxy: Awaited<ReturnType<typeof grantIssueProxy>> | undefined;
    const rig = await openPlatformWorld({
      storyboardHelper: true,
      sessionProxy: async (base) => (proxy = await grantIssueProxy(base, 1)),
    });
    const member = await rig.open('member');
    const { boards } = await member.call<{ boards: StoryboardSummary[] }>('storyboards.list');
    expect(boards.map((b) => b.boardId)).toEqual([BOARD]);
    const [lost, replay] = proxy!.issues;
    expect(lost!.dropped).toBe(true);
    expect(replay!.dropped).toBe(false);
    expect(replay!.body).toEqual(lost!.body);
    expect(replay!.answer!.expiresAt).toBe(lost!.answer!.expiresAt);
  });

  it("sends a shot's verified result to its panel once; sending again is a replay; no grant or session id leaks", async () => {
    const rig = await openPlatformWorld({ storyboardHelper: true });
    const member = await rig.open('member');
    const imported = await member.call<Imported>('storyboards.import', { boardId: BOARD });
    const sequenceId = imported.sequence.sequenceId;
    const shot = imported.sequence.shots[1]!;

    const early = await member.invoke('storyboards.send', { sequenceId, shotId: shot.shotId });
    expect(early.ok).toBe(false);
    if (!early.ok) expect(early.error.code).toBe('storyboards.nothing_to_send');
    const film = await member.invoke('storyboards.send', { sequenceId });
    expect(film.ok).toBe(false);
    if (!film.ok) expect(film.error.message).toMatch(/assemble/);

    await member.call('sequences.generate', { sequenceId, shotId: shot.shotId });
    const done = await until(
      async () => {
        const view = await member.call<SequenceView>('sequences.get', { sequenceId });
        const s = view.shots.find((x) => x.shotId === shot.shotId)!;
        if (s.state === 'failed') throw new Error(`the shot failed: ${s.errorMessage}`);
        return s.sha256 ? s : undefined;
      },
      { ms: 90_000, everyMs: 100 },
    );

    const sent = await member.call<SentToBoard>('storyboards.send', { sequenceId, shotId: shot.shotId });
    expect(sent).toMatchObject({
      boardId: BOARD,
      panelId: imported.link.panels[shot.shotId],
      replayed: false,
    });
    const again = await member.call<SentToBoard>('storyboards.send', { sequenceId, shotId: shot.shotId });
    expect(again).toMatchObject({ writeId: sent.writeId, replayed: true });

    const board = await inspect(rig, BOARD);
    expect(board.writes).toHaveLength(1);
    expect(board.writes[0]).toMatchObject({ panelId: sent.panelId, result: { sha256: done.sha256 } });

    // the media address the board holds serves exactly the result, after the hourly collection too
    await rig.backend.housekeeping(Date.now() + 2 * 60 * 60 * 1000);
    const written = board.writes[0]!.result as unknown as { mediaUrl: string; byteSize: number };
    const media = await fetch(written.mediaUrl);
    expect(media.status).toBe(200);
    expect((await media.arrayBuffer()).byteLength).toBe(written.byteSize);

    const { sessionId } = await rig.sessionOf(member);
    const answers = JSON.stringify([imported, sent, again]);
    const logs = rig.logLines.join('\n');
    const files = filesText(rig.dataDir);
    for (const secret of [sessionId]) {
      expect(answers).not.toContain(secret);
      expect(logs).not.toContain(secret);
      expect(files).not.toContain(secret);
    }
    expect(files).not.toMatch(/agr_[A-Za-z0-9_-]{20,}/);
    expect(logs).not.toMatch(/agr_[A-Za-z0-9_-]{20,}/);
    expect(answers).not.toMatch(/agr_[A-Za-z0-9_-]{20,}/);
  });

  it("sends the assembled film to the board's first panel", async () => {
    const rig = await openPlatformWorld({ storyboardHelper: true });
    const member = await rig.open('member');
    const imported = await member.call<Imported>('storyboards.import', { boardId: BOARD });
    const sequenceId = imported.sequence.sequenceId;
    await member.call('sequences.generate', { sequenceId });
    await until(
      async () => {
        const view = await member.call<SequenceView>('sequences.get', { sequenceId });
        if (view.shots.some((s) => s.state === 'failed')) throw new Error('a shot failed');
        return view.shots.every((s) => s.sha256) ? view : undefined;
      },
      { ms: 90_000, everyMs: 100 },
    );
    await member.call('sequences.assemble', { sequenceId });
    const assembly = await until(
      async () => {
        const view = await member.call<SequenceView>('sequences.get', { sequenceId });
        const a = view.assembly;
        if (a?.state === 'failed') throw new Error('the assembly failed');
        return a?.state === 'ready' ? a : undefined;
      },
      { ms: 90_000, everyMs: 100 },
    );
    const sent = await member.call<SentToBoard>('storyboards.send', { sequenceId });
    expect(sent).toMatchObject({ boardId: BOARD, panelId: 'pnl_sim_lighthouse_1', replayed: false });
    const board = await inspect(rig, BOARD);
    expect(board.writes).toHaveLength(1);
    expect(board.writes[0]).toMatchObject({
      panelId: 'pnl_sim_lighthouse_1',
      result: { sha256: assembly.sha256, mimeType: 'video/mp4' },
    });
  });
});
