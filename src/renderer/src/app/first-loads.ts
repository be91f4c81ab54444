import { useStudio } from '../store';

/**
 * What the first screen needs from the core, asked for at once and before React's first render
 * (not from the components' effects after it): the app's info and settings, the profiles and the
 * connection, the studio settings and, on Create, the draft and its services.
 */
export function startFirstLoads(): void {
  const { loadApp, loadProfiles, loadStudioSettings, loadCreate, section } = useStudio.getState();
  // first: the browser sends six requests to a host at once and queues the rest, and Create's
  // draft (then a new one) and services are the longest chain the first screen waits for
  if (section === 'create') void loadCreate();
  void loadApp();
  void loadProfiles();
  void loadStudioSettings().catch(() => undefined);
}
