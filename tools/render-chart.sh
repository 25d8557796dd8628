#!/usr/bin/env bash
# Renders a chart saved by the runner (artifacts/charts/*.html, plotly.js embedded) to a PNG with
# headless Chromium, networking off: the picture is what the offline page draws.
#   tools/render-chart.sh artifacts/charts/<chart>.html docs/<chart>.png [width] [height]
# Needs Chromium: `sudo apt-get install -y chromium` on Debian (the devcontainer's base image).
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: $0 <chart.html> <out.png> [width=1000] [height=660]" >&2
  exit 2
fi
html=$(realpath "$1")
out=$2
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [[ -z "$browser" ]]; then
  echo "No Chromium found. On Debian: sudo apt-get update && sudo apt-get install -y chromium" >&2
  exit 1
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
mkdir -p "$(dirname "$out")"
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --window-size="${3:-1000},${4:-660}" --virtual-time-budget=5000 \
  --screenshot="$(realpath -m "$out")" "file://$html" 2>/dev/null
echo "Rendered $out"
