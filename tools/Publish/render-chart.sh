#!/usr/bin/env bash
# Renders a chart saved by the runner (artifacts/charts/*.html, plotly.js embedded) to a PNG at the chart's own size
# (its layout's width and height; 1000 px wide when it sets no width), without plotly's toolbar, networking off:
#   tools/Publish/render-chart.sh artifacts/charts/<chart>.html docs/<chart>.png [width of a chart that sets none]
# tools/Publish/RenderChart does the work, so the browser is found in one place (ChromiumLocator): Chromium, Chrome or Edge
# where the platform installs them, or the executable CHROME_PATH names.
set -euo pipefail
if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 <chart.html> <out.png> [width of a chart that sets none, 1000]" >&2
  exit 2
fi
here=$(dirname "$(realpath "$0")")
exec dotnet run --project "$here/RenderChart" -c Release -- "$@"
