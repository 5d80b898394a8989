#!/usr/bin/env bash
# Runs every fuzz target for a bounded time each (FUZZ_SECONDS, default 20): CI's fuzzing gate.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-20}
for corpus in Fuzz/Corpus/*/; do
    Fuzz/run.sh "$(basename "$corpus")" "$seconds"
done
