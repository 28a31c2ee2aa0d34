#!/usr/bin/env bash
# Checks that a feedweb binary runs on a machine without Swift: no Swift runtime or
# Foundation library among what it loads, and `feedweb --version` working with the
# toolchain hidden (a mount namespace with an empty folder over it, when run as root;
# otherwise only with an empty environment) — as `make release` builds it
# (--static-swift-stdlib). Prints what it checked; exits 1 when something fails.
#
#   scripts/check-static-binary.sh path/to/feedweb
set -uo pipefail

bin=${1:?usage: scripts/check-static-binary.sh path/to/feedweb}
[ -x "$bin" ] || { echo "static check: $bin is not an executable" >&2; exit 2; }
bin=$(readlink -f "$bin")
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")

libraries=$(ldd "$bin")
if echo "$libraries" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|not found' ||
  echo "$libraries" | grep -F "$toolchain"; then
  echo "static check: $bin still loads the Swift runtime (above); build it with --static-swift-stdlib" >&2
  exit 1
fi
echo "static check: ldd lists no Swift library: $(echo "$libraries" | awk '{print $1}' | xargs)"

if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null &&
  unshare --mount true 2>/dev/null; then
  how="with $toolchain hidden and an empty environment"
  output=$(unshare --mount sh -c 'mount -t tmpfs tmpfs "$1" && exec env -i "$2" --version' sh "$toolchain" "$bin" 2>&1)
  rc=$?
else
  how="with an empty environment (not root: the toolchain stays visible)"
  output=$(env -i "$bin" --version 2>&1)
  rc=$?
fi
if [ $rc -ne 0 ] || ! echo "$output" | grep -q '^feedweb '; then
  echo "static check: feedweb --version failed $how (exit $rc): $output" >&2
  exit 1
fi
echo "static check: '$output' $how"
