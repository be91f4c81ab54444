/**
 * The status bar on the platform names the person signed in by the directory's name when the
 * session may read it; a member the directory does not name is told what is true ("a member of your
 * organization"), never "Signed in as: you" and never a raw user id.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderMarkup, rendererModule } from './static-render.js';

const shown = vi.hoisted(() => ({ state: {} as Record<string, unknown> }));
vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));
vi.mock('../../../src/renderer/src/store', () => {
  const useStudio = (selector: (s: Record<string, unknown>) => unknown) => selector(shown.state);
  return { useStudio };
});
const { StatusBar } = await rendererModule<{ StatusBar: unknown }>('components/StatusBar.js');

function signedInAs(signedIn: Record<string, unknown>): string {
  shown.state = {
    info: { signedIn: { userId: 'usr_sim_member', appRoles: ['member'], ...signedIn } },
    profiles: [],
    activeProfileId: null,
    connection: { state: 'connected' },
  };
  const html = renderMarkup(StatusBar, {});
  const part = /<span data-testid="signed-in-user">(.*?)<span class="badge">/.exec(html)?.[1] ?? '';
  expect(html).not.toContain('usr_sim_member');
  return part.replace(/<[^>]+>/g, '');
}

describe('who is signed in, in the status bar', () => {
  it('a person the directory names: by their name', () => {
    expect(signedInAs({ displayName: 'Morgan Reyes', organizationId: 'org_1' })).toBe(
      'Signed in as: Morgan Reyes',
    );
  });

  it('a member the directory does not name: "a member of your organization", not "you"', () => {
    const text = signedInAs({ displayName: null, organizationId: 'org_1' });
    expect(text).toBe('Signed in as a member of your organization');
    expect(text).not.toContain('you:');
  });

  it('without an organization: their personal account', () => {
    expect(signedInAs({ displayName: null, organizationId: null })).toBe(
      'Signed in with your personal account',
    );
  });
});
