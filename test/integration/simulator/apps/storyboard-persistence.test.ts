import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPlatformSimulator } from '../platform/platform-client.js';
import { bodyDigest, canonical, StoryboardClient } from './storyboard-client.js';
import { tempFolder } from '../../../support/worlds/temp-folder.js';

const dataDir = tempFolder('fw-storyboard-persist-');

const BODY = {
  boardId: 'brd_sim_launch_teaser',
  panelId: 'pnl_sim_teaser_2',
  result: {
    title: 'Pond, take 4',
    mediaUrl: 'http://127.0.0.1:9/results/pond.mp4',
    mimeType: 'video/mp4',
    sha256: 'b'.repeat(64),
    byteSize: 4242,
  },
};

describe('storyboard-helper state under --data-dir', () => {
  it('keeps written panel results across a restart (and a replay after it still writes once); no grant in the file', async () => {
    let grant: string;
    let writeId: string;
    const first = await startPlatformSimulator({ dataDir });
    try {
      const sb = await StoryboardClient.open(first.sim, first.client);
      const session = await first.client.openSession(first.client.app(0), 'manager');
      grant = await sb.grant(session.sessionId, 'storyboard.write', bodyDigest(BODY), 'persist-write');
      const res = await sb.call('POST', '/panel-results', { grant, body: canonical(BODY) });
      expect(res.status, res.text).toBe(200);
      writeId = res.data.write.writeId;
    } finally {
      await first.sim.close();
    }
    const file = readFileSync(path.join(dataDir, 'storyboard-helper.jsonl'), 'utf8');
    expect(file).toContain(writeId);
    expect(file).not.toContain(grant);
    const second = await startPlatformSimulator({ dataDir });
    try {
      const sb = await StoryboardClient.open(second.sim, second.client);
      const board = await sb.inspect('brd_sim_launch_teaser');
      expect(board.revision).toBe(2);
      expect(board.writes).toEqual([expect.objectContaining({ writeId, idempotencyKey: 'persist-write' })]);
      expect(board.panels[1].result).toMatchObject({ ...BODY.result, writeId });
      // the grant (persisted by the platform, still within its 2 minutes) replays the write
      const replay = await sb.call('POST', '/panel-results', { grant, body: canonical(BODY) });
      expect(replay.status, replay.text).toBe(200);
      expect(replay.data).toMatchObject({ replayed: true, write: { writeId } });
      expect((await sb.inspect('brd_sim_launch_teaser')).writes).toHaveLength(1);
    } finally {
      await second.sim.close();
    }
    expect(readFileSync(path.join(dataDir, 'storyboard-helper.jsonl'), 'utf8')).not.toContain(grant);
  });
});
