#!/usr/bin/env bash
# Installs what the desk needs on a fresh machine: Chromium for the browser tests and PostgreSQL for the
# team store's tests, each where none is found (Debian/Ubuntu: package lists refreshed first; sudo only
# when not root), then the npm packages. README's install command and .ci/run both call this script, so
# the two cannot drift.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_UPDATED=""
apt_install() {
  local what="$1" package="$2" hint="$3"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "No $what found and no apt-get here: $hint" >&2
    return 0
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "$what is missing and installing it needs root: run this as root or install sudo." >&2; exit 1; }
    sudo="sudo"
  fi
  if [ -z "$APT_UPDATED" ]; then
    $sudo apt-get update -qq
    APT_UPDATED=1
  fi
  $sudo apt-get install -y -qq "$package"
}

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 \
  && ! command -v google-chrome >/dev/null 2>&1; then
  apt_install Chromium chromium "install Chromium or Chrome, or set CHROMIUM_PATH, for the browser tests."
fi

# The team store's tests start their own server from initdb (electron/core/team/testkit/postgres.ts looks on
# PATH, then in Debian's /usr/lib/postgresql/<version>/bin, where the package puts it).
if ! command -v initdb >/dev/null 2>&1 && ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  apt_install PostgreSQL postgresql "install PostgreSQL (initdb and postgres) for the team store's tests; without it they are skipped."
fi
npm ci
