/**
 * The page on the platform: the launch code leaves the address bar before any request, is posted
 * once to the host's exchange route, and bridge calls then carry the CSRF token with the cookie;
 * when the host says the session is over, the page shows the "reopen" screen.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const ORIGIN = 'https://studio.example.test';
let events: string[];
interface FakeAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The body as sent, instead of `body` as JSON (an empty or HTML answer). */
  raw?: string;
}
let answers: Map<string, FakeAnswer>;
/** Answers given once each, in order, before `answers`. */
let queuedAnswers: Map<string, FakeAnswer[]>;
let requests: { url: string; init: RequestInit }[];

function installPage(href: string, tabStorage: Record<string, string> = {}) {
  const storage = new Map(Object.entries(tabStorage));
  const page = {
    location: { href, origin: ORIGIN },
    history: {
      state: null,
      replaceState: (_state: unknown, _title: string, url: string) => {
        events.push(`replaceState ${url}`);
        page.location.href = `${ORIGIN}${url}`;
      },
    },
    sessionStorage: {
      storage,
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
    },
  };
  vi.stubGlobal('window', page);
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    events.push(`fetch ${init.method ?? 'GET'} ${url.replace(ORIGIN, '')}`);
    requests.push({ url, init });
    const key = `${init.method ?? 'GET'} ${url.replace(ORIGIN, '')}`;
    const queued = queuedAnswers.get(key)?.shift();
    const answer = queued ??
      answers.get(key) ?? {
        status: 404,
        body: { ok: false, error: { code: 'host.not_found', message: 'Not found.' } },
      };
    return new Response(answer.raw ?? JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...(answer.headers ?? {}) },
    });
  });
  return page;
}

// imported by a path held in a variable: the renderer is type-checked with the DOM (tsconfig.web.json), not here
const transportModule = '../../../src/renderer/src/bridge/http-transport.js';
const sessionModule = '../../../src/renderer/src/bridge/platform-session.js';
interface Transport {
  invoke(method: string, params: unknown): Promise<{ ok: boolean; result?: unknown }>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
  onMissedEvents(listener: () => void): () => void;
}
interface PageModules {
  createHttpTransport(origin: string): Transport;
  platformQuestion():
    | { kind: 'switch'; signedIn: { userId: string; organizationId?: string } }
    | { kind: 'sign-in'; signingIn: { userId: string; organizationId?: string } }
    | null;
  onPlatformQuestion(listener: () => void): () => void;
  answerPlatformQuestion(yes: boolean): void;
  platformSessionIsOver(): boolean;
  onPlatformSessionOver(listener: () => void): () => void;
}

async function load(): Promise<PageModules> {
  vi.resetModules();
  const transport = (await import(transportModule)) as Pick<PageModules, 'createHttpTransport'>;
  const session = (await import(sessionModule)) as Omit<PageModules, 'createHttpTransport'>;
  return { ...transport, ...session };
}

const signedIn = {
  status: 200,
  body: {
    ok: true,
    result: {
      userId: 'u1',
      appRoles: ['studio_editor'],
      expiresAt: '2026-05-02T00:00:00Z',
      csrfToken: 'csrf-1',
    },
  },
};
const over = {
  status: 401,
  body: {
    ok: false,
    error: { code: 'platform.session_over', message: 'Reopen Framewright from your application center.' },
  },
};

beforeEach(() => {
  events = [];
  requests = [];
  answers = new Map();
  queuedAnswers = new Map();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('page start on the platform', () => {
  it('removes the launch code from the address bar before any request, then exchanges it once', async () => {
    const page = installPage(`${ORIGIN}/?launchCode=lc-123&tab=queue#top`);
    answers.set('POST /platform/session', signedIn);
    answers.set('POST /bridge/invoke', { status: 200, body: { ok: true, result: 'pong' } });
    const { createHttpTransport, platformSessionIsOver } = await load();
    const transport = createHttpTransport(ORIGIN);
    expect(page.location.href).toBe(`${ORIGIN}/?tab=queue#top`);
    expect(await transport.invoke('app.info', {})).toEqual({ ok: true, result: 'pong' });
    expect(events).toEqual([
      'replaceState /?tab=queue#top',
      'fetch POST /platform/session',
      'fetch POST /bridge/invoke',
    ]);
    expect(JSON.parse(String(requests[0]!.init.body))).toEqual({ launchCode: 'lc-123' });
    const call = requests[1]!.init;
    expect(call.credentials).toBe('same-origin');
    expect((call.headers as Record<string, string>)['x-framewright-csrf']).toBe('csrf-1');
    expect((call.headers as Record<string, string>).authorization).toBeUndefined();
    expect(platformSessionIsOver()).toBe(false);
  });

  it('a sign-in refused for load (429) is sent again after its Retry-After, nothing else', async () => {
    installPage(`${ORIGIN}/?launchCode=lc-busy`);
    queuedAnswers.set('POST /platform/session', [
      {
        status: 429,
        body: { ok: false, error: { code: 'host.too_many_sign_ins', message: 'later' } },
        headers: { 'retry-after': '0' },
      },
    ]);
    answers.set('POST /platform/session', signedIn);
    answers.set('POST /bridge/invoke', { status: 200, body: { ok: true, result: 'pong' } });
    const { createHttpTransport, platformSessionIsOver } = await load();
    expect(await createHttpTransport(ORIGIN).invoke('app.info', {})).toEqual({ ok: true, result: 'pong' });
    expect(events.filter((e) => e === 'fetch POST /platform/session')).toHaveLength(2);
    expect(platformSessionIsOver()).toBe(false);
  });

  it('a bridge call refused at the session’s cap (429) is sent again after its Retry-After', async () => {
    installPage(`${ORIGIN}/?launchCode=lc-capped`);
    answers.set('POST /platform/session', signedIn);
    queuedAnswers.set('POST /bridge/invoke', [
      {
        status: 429,
        body: { ok: false, error: { code: 'host.too_many_calls', message: 'later' } },
        headers: { 'retry-after': '0' },
      },
    ]);
    answers.set('POST /bridge/invoke', { status: 200, body: { ok: true, result: 'pong' } });
    const { createHttpTransport } = await load();
    expect(await createHttpTransport(ORIGIN).invoke('jobs.list', {})).toEqual({ ok: true, result: 'pong' });
    expect(events.filter((e) => e === 'fetch POST /bridge/invoke')).toHaveLength(2);
    expect(requests[2]!.init.body).toBe(requests[1]!.init.body);
  });

  it('a failed exchange shows the reopen screen and is not retried', async () => {
    installPage(`${ORIGIN}/?launchCode=used-code`);
    answers.set('POST /platform/session', over);
    const { createHttpTransport, platformSessionIsOver, onPlatformSessionOver } = await load();
    const told = vi.fn();
    onPlatformSessionOver(told);
    const transport = createHttpTransport(ORIGIN);
    answers.set('POST /bridge/invoke', over);
    await transport.invoke('app.info', {});
    expect(platformSessionIsOver()).toBe(true);
    expect(told).toHaveBeenCalledTimes(1);
    expect(events.filter((e) => e === 'fetch POST /platform/session')).toHaveLength(1);
  });

  it('after a reload, asks the host who is signed in; a later "session over" answer shows the reopen screen', async () => {
    installPage(`${ORIGIN}/`, { 'framewright.platform': '1' });
    answers.set('GET /platform/session', signedIn);
    answers.set('POST /bridge/invoke', over);
    const { createHttpTransport, platformSessionIsOver } = await load();
    const transport = createHttpTransport(ORIGIN);
    const answer = await transport.invoke('app.info', {});
    expect(events).toEqual(['fetch GET /platform/session', 'fetch POST /bridge/invoke']);
    expect(answer.ok).toBe(false);
    expect(platformSessionIsOver()).toBe(true);
  });

  it('outside the platform (the loopback browser host) asks nothing of /platform/session', async () => {
    installPage(`${ORIGIN}/`);
    answers.set('POST /bridge/invoke', { status: 200, body: { ok: true, result: 1 } });
    const { createHttpTransport, platformSessionIsOver } = await load();
    await createHttpTransport(ORIGIN).invoke('app.info', {});
    expect(events).toEqual(['fetch POST /bridge/invoke']);
    expect(requests[0]!.init.credentials).toBe('omit');
    expect(platformSessionIsOver()).toBe(false);
  });

  it('an answer that is not a bridge answer (empty 400, a proxy’s page) says which HTTP status came', async () => {
    installPage(`${ORIGIN}/`);
    const { createHttpTransport } = await load();
    const transport = createHttpTransport(ORIGIN);
    answers.set('POST /bridge/invoke', { status: 400, body: null, raw: '' });
    const empty = await transport.invoke('sequences.deliver', {});
    expect(empty).toMatchObject({ ok: false, error: { code: 'bridge.unreachable' } });
    expect((empty as unknown as { error: { message: string } }).error.message).toMatch(
      /HTTP 400 .*an empty body/,
    );
    answers.set('POST /bridge/invoke', {
      status: 502,
      body: null,
      raw: '<html><h1>502 Bad Gateway</h1></html>',
    });
    const proxied = await transport.invoke('jobs.list', {});
    expect((proxied as unknown as { error: { message: string } }).error.message).toMatch(
      /HTTP 502 .*502 Bad Gateway/,
    );
  });

  describe('a launch link in a browser that is signed in already', () => {
    const askFirst = {
      status: 409,
      body: {
        ok: false,
        error: {
          code: 'platform.switch_confirm',
          message: 'confirm',
          details: { signedIn: { userId: 'u0', organizationId: 'org-0' } },
        },
      },
    };
    async function askedPage() {
      const page = installPage(`${ORIGIN}/?launchCode=lc-new`);
      answers.set('POST /platform/session', askFirst);
      const modules = await load();
      const asked = new Promise<void>((resolve) => modules.onPlatformQuestion(resolve));
      const transport = modules.createHttpTransport(ORIGIN);
      await asked;
      return { page, modules, transport };
    }

    it('shows who is signed in and exchanges the code only when the person confirms', async () => {
      const { page, modules, transport } = await askedPage();
      expect(modules.platformQuestion()).toEqual({
        kind: 'switch',
        signedIn: { userId: 'u0', organizationId: 'org-0' },
      });
      // the code waits in memory only: not in the address bar, not in the tab's storage
      expect(page.location.href).toBe(`${ORIGIN}/`);
      expect(JSON.stringify([...page.sessionStorage.storage])).not.toContain('lc-new');
      answers.set('POST /platform/session', signedIn);
      answers.set('POST /bridge/invoke', { status: 200, body: { ok: true, result: 'pong' } });
      modules.answerPlatformQuestion(true);
      expect(await transport.invoke('app.info', {})).toEqual({ ok: true, result: 'pong' });
      expect(modules.platformQuestion()).toBeNull();
      const bodies = requests.filter((r) => r.url.endsWith('/platform/session')).map((r) => r.init.body);
      expect(bodies.map((b) => JSON.parse(String(b)))).toEqual([
        { launchCode: 'lc-new' },
        { launchCode: 'lc-new', replace: true },
      ]);
    });

    it('staying keeps the current session and never sends the code again', async () => {
      const { modules, transport } = await askedPage();
      answers.set('GET /platform/session', signedIn);
      answers.set('POST /bridge/invoke', { status: 200, body: { ok: true, result: 'pong' } });
      modules.answerPlatformQuestion(false);
      expect(await transport.invoke('app.info', {})).toEqual({ ok: true, result: 'pong' });
      expect(events).toEqual([
        'replaceState /',
        'fetch POST /platform/session',
        'fetch GET /platform/session',
        'fetch POST /bridge/invoke',
      ]);
    });
  });

  describe('a launch link in a browser with no session (login CSRF)', () => {
    const held = {
      status: 409,
      body: {
        ok: false,
        error: {
          code: 'platform.signin_confirm',
          message: 'confirm',
          details: { signingIn: { userId: 'u9' }, confirmToken: 'held-1' },
        },
      },
    };
    async function askedPage() {
      installPage(`${ORIGIN}/?launchCode=lc-link`);
      queuedAnswers.set('POST /platform/session', [held]);
      const modules = await load();
      const asked = new Promise<void>((resolve) => modules.onPlatformQuestion(resolve));
      const transport = modules.createHttpTransport(ORIGIN);
      await asked;
      return { modules, transport };
    }

    it('shows whom the link signs in; only the person’s yes posts the confirm token', async () => {
      const { modules, transport } = await askedPage();
      expect(modules.platformQuestion()).toEqual({ kind: 'sign-in', signingIn: { userId: 'u9' } });
      // nothing acts for the held session while the page asks
      expect(events).toEqual(['replaceState /', 'fetch POST /platform/session']);
      answers.set('POST /platform/session', signedIn);
      answers.set('POST /bridge/invoke', { status: 200, body: { ok: true, result: 'pong' } });
      modules.answerPlatformQuestion(true);
      expect(await transport.invoke('app.info', {})).toEqual({ ok: true, result: 'pong' });
      const bodies = requests.filter((r) => r.url.endsWith('/platform/session')).map((r) => r.init.body);
      expect(bodies.map((b) => JSON.parse(String(b)))).toEqual([
        { launchCode: 'lc-link' },
        { confirmToken: 'held-1', confirm: true },
      ]);
    });

    it('declining posts the refusal with the token and shows the reopen screen', async () => {
      const { modules, transport } = await askedPage();
      answers.set('POST /platform/session', { status: 200, body: { ok: true, result: null } });
      answers.set('POST /bridge/invoke', over);
      modules.answerPlatformQuestion(false);
      await transport.invoke('app.info', {});
      expect(modules.platformSessionIsOver()).toBe(true);
      const bodies = requests.filter((r) => r.url.endsWith('/platform/session')).map((r) => r.init.body);
      expect(JSON.parse(String(bodies[1]))).toEqual({ confirmToken: 'held-1', confirm: false });
    });
  });
});

/** A WebSocket the test opens and closes as the host would. */
class FakeSocket {
  static made: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  close() {
    this.onclose?.();
  }
}

describe('the events channel after a drop', () => {
  it('reconnects and tells the page to re-read once per drop, never at the first open', async () => {
    vi.useFakeTimers();
    try {
      installPage(`${ORIGIN}/?launchCode=lc-1`);
      answers.set('POST /platform/session', signedIn);
      FakeSocket.made = [];
      vi.stubGlobal('WebSocket', FakeSocket);
      const { createHttpTransport } = await load();
      const transport = createHttpTransport(ORIGIN);
      let missed = 0;
      transport.onMissedEvents(() => (missed += 1));
      transport.subscribe(() => undefined);
      await vi.waitFor(() => expect(FakeSocket.made).toHaveLength(1));
      FakeSocket.made[0]!.onopen?.();
      expect(missed).toBe(0);
      // the backend drains before a restart: its socket closes (1012), the page reconnects
      FakeSocket.made[0]!.onclose?.();
      await vi.advanceTimersByTimeAsync(600);
      expect(FakeSocket.made).toHaveLength(2);
      expect(missed).toBe(0);
      FakeSocket.made[1]!.onopen?.();
      expect(missed).toBe(1);
      FakeSocket.made[1]!.onopen?.();
      expect(missed).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
