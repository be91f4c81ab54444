import type { SimulatorState } from '../../context.js';

/**
 * The business base address of a fixture application's production version: `{origin}/apps/{appKey}`
 * on the simulator's own port, unless `startSimulator({businessTargets: {appKey: url}})` names
 * another (tests point the relay at a throw-away local server). The relay forwards only here.
 */
export function businessBaseUrl(state: SimulatorState, appKey: string): string {
  const configured = state.platform.businessTargets?.[appKey];
  if (configured) return configured.replace(/\/+$/, '');
  return `${new URL(state.baseUrl).origin}/apps/${encodeURIComponent(appKey)}`;
}
