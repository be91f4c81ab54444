/**
 * The platform world of these tests, under the names they use: it lives in
 * test/support/worlds/platform-world.ts (one shared fixture for every platform-studio test).
 */
export {
  openPlatformWorld as startStudioRig,
  type PlatformPage as Page,
  type PlatformWorld as StudioRig,
  type PlatformWorldOptions as StudioRigOptions,
  type RuntimeCall,
} from '../../support/worlds/platform-world.js';
