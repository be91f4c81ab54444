import { useStudio } from '../store';

/**
 * What the first screen needs from the core, asked for at once and before React's first render
 * (not from the components' effects after it): the app's info and settings, the profiles and the
 * connection, the studio settings and, on Create, the draft and its services.
 */
export function startFirstLoads(): void {
  const { loadApp, loadProfiles, loadStudioSettings, loadCreate, section } = useStudio.getState();
  void loadApp();
  void loadProfiles();
  void loadStudioSettings().catch(() => undefined);
  if (section === 'create') void loadCreate();
}
