#!/usr/bin/env bash
# Run a command against a real, throw-away Secret Service (gnome-keyring) on a private D-Bus session.
#
#   bash scripts/with-keyring.sh env FRAMEWRIGHT_KEYRING_TESTS=1 npx vitest run --project integration test/integration/secrets
#
# - a temporary writable HOME (and XDG dirs) so the keyring files never touch the real user's keyring;
# - dbus-run-session gives the command its own session bus (DBUS_SESSION_BUS_ADDRESS);
# - gnome-keyring-daemon is started with --unlock (the password is read from stdin) and only the
#   "secrets" component, and the variables it prints are exported for the command;
# - the command is exec'd, so its exit status is this script's exit status; the bus (and the daemon
#   on it) go away when the command ends, and the temporary HOME is removed.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 64
fi

for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "with-keyring: '$tool' is not installed (Debian/Ubuntu: apt-get install dbus gnome-keyring libsecret-1-0)." >&2
    exit 69
  fi
done

if [ -z "${FRAMEWRIGHT_WITH_KEYRING_INNER:-}" ]; then
  tmp_home="$(mktemp -d "${TMPDIR:-/tmp}/framewright-keyring.XXXXXX")"
  trap 'rm -rf "$tmp_home"' EXIT
  # Not exec: the trap must run after the session ends to remove the temporary HOME.
  FRAMEWRIGHT_WITH_KEYRING_INNER="$tmp_home" dbus-run-session -- bash "$0" "$@"
  exit $?
fi

# Inside the private D-Bus session.
export HOME="$FRAMEWRIGHT_WITH_KEYRING_INNER"
unset FRAMEWRIGHT_WITH_KEYRING_INNER
export XDG_DATA_HOME="$HOME/.local/share"
export XDG_CONFIG_HOME="$HOME/.config"
export XDG_CACHE_HOME="$HOME/.cache"
export XDG_RUNTIME_DIR="$HOME/.runtime"
mkdir -p "$XDG_DATA_HOME/keyrings" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

# --unlock reads the login keyring password from stdin (and creates the keyring if it does not exist).
# The output is lines like GNOME_KEYRING_CONTROL=/path; export each one.
keyring_env="$(printf '%s' "framewright-test-keyring" | gnome-keyring-daemon --daemonize --unlock --components=secrets)"
while IFS= read -r line; do
  case "$line" in
    *=*) export "${line?}" ;;
  esac
done <<<"$keyring_env"

exec "$@"
