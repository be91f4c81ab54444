/**
 * A fake of the renderer's bridge for slice tests: answers by method, records every call.
 * Use: `vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'))`, then
 * set `fake.answers` and read `fake.calls`.
 */
export const fake = {
  answers: new Map<string, (params: Record<string, unknown>) => unknown>(),
  calls: [] as { method: string; params: Record<string, unknown> }[],
  reset() {
    this.answers.clear();
    this.calls.length = 0;
  },
};

export const bridge = {
  async invoke(method: string, params: Record<string, unknown>) {
    fake.calls.push({ method, params });
    const answer = fake.answers.get(method);
    if (!answer) throw new Error(`unexpected bridge call ${method}`);
    return answer(params);
  },
  on: () => () => undefined,
};
