import { describe, expect, it } from 'vitest';
import {
  EditHistory,
  HISTORY_LIMIT,
  loadHistory,
  sharedHistory,
  type EditPort,
  type HistoryStorage,
  type TimelineEdit,
} from '../../../src/renderer/src/screens/sequences/timeline/timeline-history.js';

/** The film as the bridge would keep it, changed only by the port's calls. */
function film() {
  const state = {
    order: ['a', 'b', 'c'],
    removed: new Map<string, number>(),
    trims: new Map<string, { inSeconds: number; outSeconds: number } | null>(),
    voices: new Map([['v1', { atSeconds: 2, gainDb: 0 }]]),
    levels: { musicGainDb: -6, duckDb: 12 },
    captions: new Map<string, { startSeconds: number; endSeconds: number } | null>(),
    refuse: false,
  };
  const calls: string[] = [];
  const port: EditPort = {
    moveShot: async (shotId, to) => {
      calls.push(`move ${shotId} ${to}`);
      if (state.refuse) return false;
      state.order = state.order.filter((s) => s !== shotId);
      state.order.splice(to, 0, shotId);
      return true;
    },
    removeShot: async (shotId) => {
      calls.push(`remove ${shotId}`);
      if (state.refuse || !state.order.includes(shotId)) return false;
      state.removed.set(shotId, state.order.indexOf(shotId));
      state.order = state.order.filter((s) => s !== shotId);
      return true;
    },
    restoreShot: async (shotId) => {
      calls.push(`restore ${shotId}`);
      const at = state.removed.get(shotId);
      if (state.refuse || at === undefined) return false;
      state.removed.delete(shotId);
      state.order.splice(at, 0, shotId);
      return true;
    },
    trimShot: async (shotId, range) => {
      calls.push(`trim ${shotId} ${JSON.stringify(range)}`);
      if (state.refuse) return false;
      state.trims.set(shotId, range);
      return true;
    },
    updateVoice: async (lineId, change) => {
      calls.push(`voice ${lineId} ${JSON.stringify(change)}`);
      if (state.refuse) return false;
      state.voices.set(lineId, { ...state.voices.get(lineId)!, ...change });
      return true;
    },
    setLevels: async (levels) => {
      calls.push(`levels ${JSON.stringify(levels)}`);
      if (state.refuse) return false;
      state.levels = levels;
      return true;
    },
    updateCaption: async (lineId, cueIndex, range) => {
      calls.push(`caption ${lineId} ${cueIndex} ${JSON.stringify(range)}`);
      if (state.refuse) return false;
      state.captions.set(`${lineId}:${cueIndex}`, range);
      return true;
    },
  };
  return { state, calls, port };
}

function memoryStorage(): HistoryStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

const EDITS: TimelineEdit[] = [
  { kind: 'move', shotId: 'a', label: 'Shot 1', from: 0, to: 2 },
  { kind: 'shot-presence', shotId: 'c', label: 'Shot 2', present: false },
  { kind: 'trim', shotId: 'b', label: 'Shot 2', before: null, after: { inSeconds: 0.5, outSeconds: 4 } },
  { kind: 'voice-time', lineId: 'v1', label: 'Hello', before: 2, after: 3.25 },
  { kind: 'voice-gain', lineId: 'v1', label: 'Hello', before: 0, after: -6 },
  {
    kind: 'caption',
    lineId: 'v1',
    cueIndex: 0,
    label: 'Hello',
    before: { startSeconds: 2, endSeconds: 3.5 },
    after: { startSeconds: 2, endSeconds: 3 },
  },
  {
    kind: 'levels',
    before: { musicGainDb: -6, duckDb: 12 },
    after: { musicGainDb: -3, duckDb: 18 },
  },
];

describe('timeline undo and redo', () => {
  it('undoes and redoes every kind of edit through the bridge, and survives a reload', async () => {
    const { state, port } = film();
    const storage = memoryStorage();
    const history = new EditHistory('seq-1', port, storage);
    for (const edit of EDITS) expect(await history.edit(edit)).toBe(true);
    expect(state.order).toEqual(['b', 'a']);
    expect(state.trims.get('b')).toEqual({ inSeconds: 0.5, outSeconds: 4 });
    expect(state.voices.get('v1')).toEqual({ atSeconds: 3.25, gainDb: -6 });
    expect(state.levels).toEqual({ musicGainDb: -3, duckDb: 18 });
    expect(state.captions.get('v1:0')).toEqual({ startSeconds: 2, endSeconds: 3 });

    // the page reloads: a new history reads the same storage
    const reloaded = new EditHistory('seq-1', port, storage);
    expect(reloaded.state.done).toHaveLength(EDITS.length);
    for (const edit of [...EDITS].reverse()) expect(await reloaded.undo()).toEqual(edit);
    expect(await reloaded.undo()).toBeUndefined();
    expect(state.order).toEqual(['a', 'b', 'c']);
    expect(state.trims.get('b')).toBeNull();
    expect(state.voices.get('v1')).toEqual({ atSeconds: 2, gainDb: 0 });
    expect(state.levels).toEqual({ musicGainDb: -6, duckDb: 12 });
    expect(state.captions.get('v1:0')).toEqual({ startSeconds: 2, endSeconds: 3.5 });

    // and again: redo, after another reload, brings every edit back
    const again = new EditHistory('seq-1', port, storage);
    expect(again.state.undone).toHaveLength(EDITS.length);
    for (const edit of EDITS) expect(await again.redo()).toEqual(edit);
    expect(await again.redo()).toBeUndefined();
    expect(state.order).toEqual(['b', 'a']);
    expect(state.voices.get('v1')).toEqual({ atSeconds: 3.25, gainDb: -6 });
    expect(state.levels).toEqual({ musicGainDb: -3, duckDb: 18 });
  });

  it('keeps a step the core refused where it was, and a new edit ends what could be redone', async () => {
    const { state, port } = film();
    const history = new EditHistory('seq-1', port, memoryStorage());
    await history.edit(EDITS[0]!);
    state.refuse = true;
    expect(await history.undo()).toBeUndefined();
    expect(history.state.done).toHaveLength(1);
    expect(await history.edit(EDITS[2]!)).toBe(false);
    expect(history.state.done).toHaveLength(1);
    state.refuse = false;
    await history.undo();
    expect(history.state.undone).toHaveLength(1);
    await history.edit(EDITS[2]!);
    expect(history.state).toEqual({ done: [EDITS[2]], undone: [] });
  });

  it('keeps each sequence’s history apart, reads damaged storage as none and keeps the last steps only', async () => {
    const { port } = film();
    const storage = memoryStorage();
    const one = new EditHistory('seq-1', port, storage);
    await one.edit(EDITS[2]!);
    expect(new EditHistory('seq-2', port, storage).state.done).toEqual([]);
    storage.setItem('framewright.timeline-history.seq-3', '{not json');
    expect(loadHistory(storage, 'seq-3')).toEqual({ done: [], undone: [] });
    storage.setItem(
      'framewright.timeline-history.seq-4',
      JSON.stringify({ done: [{ kind: 'nope' }, EDITS[0]] }),
    );
    expect(loadHistory(storage, 'seq-4').done).toEqual([EDITS[0]]);
    for (let i = 0; i < HISTORY_LIMIT + 5; i += 1) await one.edit(EDITS[3]!);
    expect(one.state.done).toHaveLength(HISTORY_LIMIT);
  });

  it('records what the forms applied (not applying it again) and undoes it like its own, one history per sequence', async () => {
    const { state, calls, port } = film();
    const history = sharedHistory('seq-forms');
    expect(sharedHistory('seq-forms')).toBe(history);
    expect(sharedHistory('seq-other')).not.toBe(history);
    // the strip moved shot a to the end itself: recorded only
    state.order = ['b', 'c', 'a'];
    history.record({ kind: 'move', shotId: 'a', label: 'Shot 1', from: 0, to: 2 });
    expect(calls).toEqual([]);
    // nothing is applied before the timeline connects its bridge methods
    expect(await history.undo()).toBeUndefined();
    history.connect(port);
    const seen: number[] = [];
    const stop = history.subscribe((h) => seen.push(h.done.length));
    expect(await history.undo()).toMatchObject({ kind: 'move' });
    expect(state.order).toEqual(['a', 'b', 'c']);
    stop();
    await history.redo();
    expect(seen).toEqual([0]);
    expect(state.order).toEqual(['b', 'c', 'a']);
  });
});
