#!/usr/bin/env bash
# Rewrites the sources in place with the checked-in .swift-format settings.
set -euo pipefail
cd "$(dirname "$0")/.."

swift format format --in-place --recursive --parallel Package.swift Sources Tests
