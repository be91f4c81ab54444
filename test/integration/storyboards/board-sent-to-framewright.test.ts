/**
 * Storyboard Helper sends a board to a person's Framewright (issue 29, Framewright as the callee),
 * wired as `serve --platform` wires it: the simulator's storyboard-helper issues a `sequence.create`
 * grant for the exact bytes and posts the board; Framewright resolves the grant with its own
 * credential, then makes the sequence in the workspace of the grant's person — the one their
 * cookie reaches — and in no one else's.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SequenceSummary, SequenceView } from '../../../src/shared/bridge/contract.js';
import { openPlatformWorld, type PlatformWorld } from '../../support/worlds/platform-world.js';

let world: PlatformWorld;

beforeAll(async () => {
  world = await openPlatformWorld({ storyboardHelper: true });
});
afterAll(async () => {
  await world?.close();
});

const helperBase = () =>
  world.sim.platform.apps.find((a) => a.appKey === 'storyboard-helper')!.businessBaseUrl!;

async function send(boardId: string) {
  const res = await fetch(`${helperBase()}/_simulator/boards/${boardId}/send-to-framewright`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${world.sim.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ targetBaseUrl: world.origin }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { sequenceId: string; replayed: boolean; code?: string; message?: string },
  };
}

it('a board sent to a person who has not opened Framewright is refused with what to do, creating nothing; once they open it, the same send works', async () => {
  const refused = await send('brd_sim_launch_teaser');
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe('subject_not_signed_in');
  expect(refused.body.message).toMatch(/open Framewright, then send the same board again/);

  const manager = await world.open('manager');
  expect(await manager.call<SequenceSummary[]>('sequences.list')).toEqual([]);
  const accepted = await send('brd_sim_launch_teaser');
  expect(accepted.status).toBe(201);
  const sequence = await manager.call<SequenceView>('sequences.get', {
    sequenceId: accepted.body.sequenceId,
  });
  expect(sequence.shots).toHaveLength(2);
  await manager.call('sequences.delete', { sequenceId: accepted.body.sequenceId });
});

it('a board sent by Storyboard Helper becomes the member’s sequence (one shot per panel), once', async () => {
  // the member uses Framewright (their session lists the video services a shot is made for)
  const member = await world.open('member');
  const first = await send('brd_sim_lighthouse');
  expect(first.status).toBe(201);
  expect(first.body.replayed).toBe(false);

  const sequence = await member.call<SequenceView>('sequences.get', { sequenceId: first.body.sequenceId });
  expect(sequence.shots).toHaveLength(3);
  expect(sequence.shots.every((shot) => shot.state === 'draft' && shot.firstFramePosterUrl)).toBe(true);
  expect(sequence.shots.map((shot) => shot.prompt.length > 0)).toEqual([true, true, true]);
  const { link } = await member.call<{ link: { boardId: string } | null }>('storyboards.linkOf', {
    sequenceId: first.body.sequenceId,
  });
  expect(link?.boardId).toBe('brd_sim_lighthouse');

  // the same send again (the same grant within its minutes): the same sequence, nothing new
  const again = await send('brd_sim_lighthouse');
  expect(again.body.sequenceId).toBe(first.body.sequenceId);
  expect(await member.call<SequenceSummary[]>('sequences.list')).toHaveLength(1);

  // another person's Sequences are untouched (the personal user never had one)
  const personal = await world.open('personal');
  expect(await personal.call<SequenceSummary[]>('sequences.list')).toEqual([]);
});
