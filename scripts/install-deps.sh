#!/usr/bin/env bash
# Installs the system packages feedweb needs, only those that are missing.
#   scripts/install-deps.sh          what running feedweb needs (libmicrohttpd, liburing)
#   scripts/install-deps.sh --test   plus what the tests drive (Chromium, its driver, Firefox ESR
#                                    for the shared page stream, nginx, wrk, PostgreSQL for the
#                                    cluster tests, pip to fetch htmx and Datastar from PyPI for
#                                    the page-stream dialect tests, Mosquitto for the MQTT tests)
#   scripts/install-deps.sh --soak   plus what `make soak` builds its load tools with (gcc, make)
#   scripts/install-deps.sh --bench  plus what `make bench` compares with (nginx, nchan, wrk, curl)
#                                    and drives (Chromium for the page DOM latency, PostgreSQL
#                                    for the cluster)
set -euo pipefail

packages=(libmicrohttpd-dev liburing-dev pkg-config)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(chromium chromium-driver firefox-esr nginx wrk python3-html5lib python3-pip postgresql mosquitto mosquitto-clients)
fi
if [[ "${1:-}" == "--soak" ]]; then
  packages+=(gcc make python3)
fi
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(nginx libnginx-mod-nchan wrk curl gcc make chromium chromium-driver postgresql)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "Installing: ${missing[*]}" >&2
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
