#!/usr/bin/env bash
# updateContentCommand: everything that follows the repository's content. A Codespaces prebuild runs it when the
# prebuild is made and again on each update of it, so a new Codespace starts built:
# https://docs.github.com/en/codespaces/prebuilding-your-codespaces/configuring-prebuilds#configuring-time-consuming-tasks-to-be-included-in-the-prebuild
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== restore"
dotnet restore PooledHttp.slnx

echo "== build (Release: what the notebooks and benchmarks use)"
dotnet build PooledHttp.slnx -c Release --no-restore

echo "== .NET 8 and 9 into artifacts/dotnet, for the chapters that compare runtimes"
# Not fatal: a chapter that finds a runtime missing fetches it itself, or measures without it and says so.
if ! dotnet run -c Release tools/PrefetchRuntimes/prefetch-runtimes.cs; then
  echo "warning: the runtimes could not all be fetched now; the chapters that compare runtimes will try again" >&2
fi
