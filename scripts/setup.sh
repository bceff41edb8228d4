#!/usr/bin/env bash
# Installs what the desk needs on a fresh machine: Chromium for the browser tests where none is found
# (Debian/Ubuntu: package lists refreshed first; sudo only when not root), then the npm packages.
# README's install command and .ci/run both call this script, so the two cannot drift.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 \
  && ! command -v google-chrome >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
      command -v sudo >/dev/null 2>&1 || { echo "Chromium is missing and installing it needs root: run this as root or install sudo." >&2; exit 1; }
      SUDO="sudo"
    fi
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq chromium
  else
    echo "No Chromium or Chrome found and no apt-get here: install Chromium or Chrome, or set CHROMIUM_PATH, for the browser tests." >&2
  fi
fi
npm ci
