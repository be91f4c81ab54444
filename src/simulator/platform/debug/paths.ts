/** `{developer_base_url}` relative to the platform prefix (section E; section D's routes are under it). */
export const DEVELOPER_PATH = '/api/v1/appstore/developer';
/** `{debug_base_url}` relative to the platform prefix: the online debugging runtime (section B) and the relay. */
export const DEBUG_PATH = '/debug/v1';
/** Section D's prefix below `{developer_base_url}`, relative to the platform prefix. */
export const DEBUG_BINDING_PATH = `${DEVELOPER_PATH}/apps/{appId}/versions/{versionId}`;
/** The relay below `{debug_base_url}`. */
export const RELAY_SEGMENT = '/inter-app/';
