import { describe, expect, it, vi } from 'vitest';
import { StartupServiceList } from '../../../src/main/core/discovery/startup-service-list.js';
import { OutcomeUnknownError } from '../../../src/main/core/api-clients/api-errors.js';

const list = (name: string) => ({ data: [{ model: name }] }) as never;

function service(answers: (() => Promise<unknown>)[]) {
  const listServices = vi.fn((serviceKind?: string) => {
    void serviceKind;
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next() as never;
  });
  return { listServices };
}

describe('the start-up service list', () => {
  it('answers the first screen once with the check’s list; later lists ask the service', async () => {
    let now = 0;
    const shared = new StartupServiceList(5000, () => now);
    const checkClient = service([async () => list('checked')]);
    const pageClient = service([async () => list('asked')]);
    const check = await shared.recording('p1', Promise.resolve(checkClient));
    expect(await check.listServices()).toEqual(list('checked'));
    now = 4000;
    const page = shared.sharing('p1', pageClient);
    expect(await page.listServices()).toEqual(list('checked'));
    expect(await page.listServices()).toEqual(list('asked'));
    expect(pageClient.listServices).toHaveBeenCalledTimes(1);
  });

  it('does not hand a list older than its age limit, nor one of another profile', async () => {
    let now = 0;
    const shared = new StartupServiceList(5000, () => now);
    const check = await shared.recording('p1', Promise.resolve(service([async () => list('checked')])));
    await check.listServices();
    await new Promise((resolve) => setTimeout(resolve)); // the answer is noted
    const other = service([async () => list('other')]);
    expect(await shared.sharing('p2', other).listServices()).toEqual(list('other'));
    now = 5001;
    const page = service([async () => list('fresh')]);
    expect(await shared.sharing('p1', page).listServices()).toEqual(list('fresh'));
  });

  it('lets the first screen ask itself when the check failed (its own offline handling)', async () => {
    const shared = new StartupServiceList();
    const offline = new OutcomeUnknownError('GET /services', 'ECONNREFUSED');
    const check = await shared.recording('p1', Promise.resolve(service([() => Promise.reject(offline)])));
    const page = service([async () => list('asked')]);
    const waiting = shared.sharing('p1', page).listServices(); // while the check is in flight
    await expect(check.listServices()).rejects.toBe(offline);
    expect(await waiting).toEqual(list('asked'));
  });

  it('lets the first screen ask itself when the check could not even open its client', async () => {
    const shared = new StartupServiceList();
    const refused = new Error('no key');
    const opening = shared.recording('p1', Promise.reject(refused));
    const page = service([async () => list('asked')]);
    const waiting = shared.sharing('p1', page).listServices();
    await expect(opening).rejects.toBe(refused);
    expect(await waiting).toEqual(list('asked'));
  });

  it('keeps every other method of the client, bound to it', async () => {
    const shared = new StartupServiceList();
    class Client {
      readonly profileId = 'p1';
      private readonly secret = 'x';
      listServices = vi.fn(async () => list('asked'));
      peek() {
        return this.secret;
      }
    }
    const wrapped = shared.sharing('p1', new Client());
    const { peek } = wrapped;
    expect(peek()).toBe('x');
    expect(wrapped.profileId).toBe('p1');
  });
});
