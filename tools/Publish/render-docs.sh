#!/usr/bin/env bash
# Renders each chapter's main chart from a run's charts folder to docs/charts/NN.png, for the results
# page (docs/results.md), and chapter 08's again to docs/journey.png. Use the reference run's charts:
#   tools/Publish/render-docs.sh <run output>/charts
# Each picture is what tools/Publish/render-chart.sh draws of one saved chart (tools/Publish/RenderChart, built once here): at its own
# size, no toolbar, networking off.
set -euo pipefail
charts=${1:?usage: $0 <charts folder of a run>}
here=$(dirname "$(realpath "$0")")
docs="$here/../../docs/charts"
# chapter -> the start of its main chart's file name (the runner names a chart file after its title)
declare -A main=(
  [00]="00-bytes-allocated-per-64-kib-download"
  [01]="01-bytes-allocated-per-operation"
  [02]="02-bytes-allocated-per-1-mib-download-by-runtime"
  [03]="03-bytes-allocated-per-request-250-books"
  [04]="04-bytes-allocated-per-download-1-kib-to-64-mib"
  [05]="05-bytes-allocated-per-post-about-1-91-mib-of-json"
  [06]="06-bytes-allocated-per-100-000-byte-post"
  [07]="07-kib-allocated-per-1-mib-download-by-downloads-in-flight"
  [08]="from-5-mb-to-a-few-kib"
  [09]="09-kib-allocated-per-download-by-what-the-body-crosses"
)
mkdir -p "$docs"
dotnet build "$here/RenderChart" -c Release -v quiet -nologo
render() { dotnet run --project "$here/RenderChart" -c Release --no-build -- "$@"; }
missing=0
for chapter in $(printf '%s\n' "${!main[@]}" | sort); do
  chart=$(ls "$charts/${main[$chapter]}"*.html 2>/dev/null | head -1 || true)
  if [[ -z "$chart" ]]; then
    echo "No chart for chapter $chapter in $charts (looked for ${main[$chapter]}*.html)" >&2
    missing=1
    continue
  fi
  render "$chart" "$docs/$chapter.png"
  if [[ $chapter == 08 ]]; then
    render "$chart" "$here/../../docs/journey.png"
  fi
done
exit $missing
