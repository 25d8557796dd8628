#!/usr/bin/env bash
# onCreateCommand: what the container needs once, whatever the repository holds. A Codespaces prebuild runs it
# (and updateContentCommand) before anyone opens the Codespace, never postCreateCommand:
# https://docs.github.com/en/codespaces/prebuilding-your-codespaces/about-github-codespaces-prebuilds#the-prebuild-process
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Chromium, for tools/Publish/render-chart.sh, tools/Publish/render-docs.sh and the chart tests"
sudo apt-get update -qq
sudo apt-get install -y -qq --no-install-recommends chromium

echo "== .NET Interactive, the C# kernel for Jupyter (VS Code's Polyglot Notebooks extension brings its own)"
# The version is the repository's one pin, .config/dotnet-interactive.version (a test installs it): 1.0.712001 when
# written, .NET Interactive's last release (deprecated, its repository archived in April 2026). --allow-downgrade: a
# rerun settles on the pinned version whatever is installed. (A plain file, not a local tool manifest: with a
# dotnet-tools.json in the repository, the `dotnet interactive` that Jupyter starts in notebooks/ would ask for
# `dotnet tool restore` instead of running the tool installed here.)
interactive_version=$(tr -d '[:space:]' < .config/dotnet-interactive.version)
dotnet tool install --global Microsoft.dotnet-interactive --version "$interactive_version" --allow-downgrade
export PATH="$PATH:$HOME/.dotnet/tools"
# Registers the ".NET (C#)" kernel (and F#, PowerShell) with the Jupyter that the python feature installed.
dotnet interactive jupyter install
jupyter kernelspec list
