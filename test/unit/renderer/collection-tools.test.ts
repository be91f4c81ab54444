/**
 * The tools of the collection the Library shows (issue 41), rendered: what the backend's
 * capabilities allow, and nothing else — the exported package's folder (with its path to copy) where
 * the backend has folders of this computer, a download link where it answers one, "Share with
 * project" where it shares collections with a team, "Make a sequence" where Sequences exist.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  PLATFORM_CAPABILITIES,
  PUBLIC_API_CAPABILITIES,
} from '../../../src/main/core/backends/capabilities.js';
import type { CollectionView } from '../../../src/shared/bridge/contract.js';
import { renderMarkup, rendererModule } from './static-render.js';

const shown = vi.hoisted(() => ({ state: {} as Record<string, unknown> }));
vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));
vi.mock('../../../src/renderer/src/store', () => ({
  useStudio: (selector: (s: Record<string, unknown>) => unknown) => selector(shown.state),
}));
vi.mock('../../../src/renderer/src/store/review-store', async (importOriginal) => {
  const actual = await importOriginal<Record<string, unknown>>();
  return {
    ...actual,
    useReview: (selector: (s: Record<string, unknown>) => unknown) => selector(shown.state),
  };
});

await rendererModule('screens/library/review-i18n.js');
const { CollectionTools } = await rendererModule<{ CollectionTools: unknown }>(
  'screens/library/collections/CollectionsBar.js',
);

const selects: CollectionView = {
  id: 'c-1',
  name: 'Selects',
  jobRowIds: [1, 2, 3],
  sharedProjectId: null,
  createdAt: 1,
  updatedAt: 1,
};
const noop = () => Promise.resolve(true);

function show(patch: Record<string, unknown>) {
  const state: Record<string, unknown> = {
    activeCollectionId: 'c-1',
    collections: [selects],
    collectionsError: null,
    collectionBusy: null,
    madeSequence: null,
    shareProjects: [{ id: 'p-1', name: 'Spring campaign', archived: false }],
    ...patch,
  };
  shown.state = new Proxy(state, { get: (target, key: string) => (key in target ? target[key] : noop) });
  return renderMarkup(CollectionTools, {});
}

const exported = (folder: string | null, downloadPath: string | null) => ({
  collectionId: 'c-1',
  fileName: 'selects-review',
  takes: 3,
  folder,
  downloadPath,
});

describe('the collection tools', () => {
  it('on this computer: the package folder to copy, no download, no sharing', () => {
    const html = show({
      info: { capabilities: PUBLIC_API_CAPABILITIES },
      exported: exported('/home/ana/Framewright/review/selects-review', null),
    });
    expect(html).toContain('Selects · 3 takes');
    expect(html).toContain('data-testid="collection-to-sequence"');
    expect(html).toContain('/home/ana/Framewright/review/selects-review');
    expect(html).toContain('data-testid="collection-export-copy"');
    expect(html).not.toContain('collection-export-download');
    expect(html).not.toContain('data-testid="collection-share"');
  });

  it('on the platform: a download link and "Share with project", no folder', () => {
    const html = show({
      info: {
        capabilities: PLATFORM_CAPABILITIES,
        signedIn: { userId: 'u-1', organizationId: 'org-1', appRoles: [] },
      },
      // a folder named by the server is never shown where the page has no folders of its own
      exported: exported('/srv/framewright/data/review', '/media/review/c-1.zip?s=x'),
    });
    expect(html).toContain('href="/media/review/c-1.zip?s=x"');
    expect(html).toContain('download="selects-review"');
    expect(html).not.toContain('/srv/framewright');
    expect(html).not.toContain('collection-export-copy');
    expect(html).toContain('data-testid="collection-share"');
    expect(html).toContain('Spring campaign');
  });

  it('no shared collections, no sharing; no Sequences, no "Make a sequence"', () => {
    const html = show({
      info: { capabilities: { ...PLATFORM_CAPABILITIES, sharedCollections: false, sequences: false } },
      exported: null,
    });
    expect(html).not.toContain('data-testid="collection-share"');
    expect(html).not.toContain('data-testid="collection-to-sequence"');
    expect(html).toContain('data-testid="collection-export"');
  });

  it('a made sequence offers to open it on the Sequences screen', () => {
    const html = show({
      info: { capabilities: PUBLIC_API_CAPABILITIES },
      exported: null,
      madeSequence: { collectionId: 'c-1', sequenceId: 's-1', shots: 2, skipped: 1 },
    });
    expect(html).toContain('A sequence of 2 shots was made.');
    expect(html).toContain('1 take is not a video and was left out.');
    expect(html).toContain('data-testid="collection-open-sequence"');
  });
});
