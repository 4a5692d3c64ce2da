#!/usr/bin/env bash
# Installs Debian packages the tests need, or says plainly what to install by hand.
# Usage: scripts/apt-install.sh "<what needs them>" <package>...
# `npm test` installs Chromium, PostgreSQL 15 and Redis this way on first use: that needs
# Debian (or Ubuntu: apt-get) and root. Anywhere else it stops with this message instead.
set -uo pipefail
what=${1:?what needs the packages}; shift
pkgs="$*"
manual() {
  {
    echo "apt-install: $what: missing the Debian package(s) $pkgs"
    echo "apt-install: $1"
    echo "apt-install: install them by hand (Debian/Ubuntu as root: apt-get install -y $pkgs; elsewhere your system's"
    echo "apt-install: Chromium, PostgreSQL 15 and Redis; set CHROMIUM_PATH for a Chromium elsewhere), then run again."
    echo "apt-install: without them, the fast loop still works: npm run test:unit"
  } >&2
  exit 1
}
command -v apt-get >/dev/null 2>&1 || manual "this machine has no apt-get (not Debian or Ubuntu), so they cannot be installed for you."
[ "$(id -u)" = 0 ] || manual "installing them needs root, and this runs as $(id -un)."
echo "apt-install: installing $pkgs from Debian for $what (first run only)" >&2
{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >/dev/null; } || manual "apt-get could not install them (see its message above)."
