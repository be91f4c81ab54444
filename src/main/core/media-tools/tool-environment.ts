/**
 * The environment ffmpeg and ffprobe run with: only what they need to find themselves, their
 * temporary files, fonts and locale. Never the backend's own settings — `PLATFORM_APP_CREDENTIAL`,
 * `FRAMEWRIGHT_*`, API keys, tokens — which a child process would otherwise inherit (and a
 * crash report, a core dump or `/proc/<pid>/environ` would show).
 */
const PASSED_TO_MEDIA_TOOLS = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'LC_NUMERIC',
  'TZ',
  'FONTCONFIG_FILE',
  'FONTCONFIG_PATH',
  'XDG_CACHE_HOME',
  'SYSTEMROOT',
  'WINDIR',
] as const;

export function mediaToolEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const minimal: NodeJS.ProcessEnv = {};
  for (const name of PASSED_TO_MEDIA_TOOLS) if (env[name] !== undefined) minimal[name] = env[name];
  return minimal;
}
