import { APP_NAME, APP_VERSION } from '../../../shared/app-version.js';
import type { z } from 'zod';
import type { AppInfo, Capabilities } from '../../../shared/bridge/domains/app.js';
import { RUNTIME_PROFILE_ID } from '../backends/platform-runtime/runtime-create.js';

/** `app.info` of a person's workspace on the platform: no data folder, the backend's capabilities. */
export async function platformAppInfo(
  capabilities: Capabilities,
  signedIn: () => Promise<z.output<typeof AppInfo>['signedIn']>,
): Promise<z.output<typeof AppInfo>> {
  return {
    name: APP_NAME,
    version: APP_VERSION,
    host: 'platform' as const,
    os: process.platform,
    nodeVersion: process.versions.node,
    dataDir: '',
    capabilities,
    signedIn: await signedIn(),
  };
}

/** The one profile a platform workspace lists: the runtime's, with no key of the person's. */
export function platformProfilesList() {
  return {
    activeProfileId: RUNTIME_PROFILE_ID,
    profiles: [
      { id: RUNTIME_PROFILE_ID, name: 'Platform', kind: 'personal' as const, baseUrl: null, hasSecret: true },
    ],
  };
}
