#!/usr/bin/env bash
# onCreateCommand: what the container needs once, whatever the repository holds. A Codespaces prebuild runs it
# (and updateContentCommand) before anyone opens the Codespace, never postCreateCommand:
# https://docs.github.com/en/codespaces/prebuilding-your-codespaces/about-github-codespaces-prebuilds#the-prebuild-process
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Chromium, for tools/render-chart.sh, tools/render-docs.sh and the chart tests"
sudo apt-get update -qq
sudo apt-get install -y -qq --no-install-recommends chromium

echo "== .NET Interactive, the C# kernel for Jupyter (VS Code's Polyglot Notebooks extension brings its own)"
# Pinned to 1.0.707101 (built 2026-01-21, runs on net10.0), the newest release we found: .NET Interactive was
# deprecated and its repository archived in April 2026. --allow-downgrade: a rerun settles on this version.
dotnet tool install --global Microsoft.dotnet-interactive --version 1.0.707101 --allow-downgrade
export PATH="$PATH:$HOME/.dotnet/tools"
# Registers the ".NET (C#)" kernel (and F#, PowerShell) with the Jupyter that the python feature installed.
dotnet interactive jupyter install
jupyter kernelspec list
