// The browser host's world is a shared world of test/support/worlds/.
export { openHostTestWorld, type HostTestWorld } from './worlds/browser-host.js';
