#!/usr/bin/env bash
#
# test/fuzz/run-long.sh - the long fuzzing run: test/fuzz/run-short.sh with
# FUZZ_SECONDS=600 (10 minutes) unless FUZZ_SECONDS is set.
#
#   bash test/fuzz/run-long.sh
#   FUZZ_SECONDS=3600 bash test/fuzz/run-long.sh
#
set -euo pipefail

export FUZZ_SECONDS=${FUZZ_SECONDS:-600}
exec bash "$(dirname "${BASH_SOURCE[0]}")/run-short.sh" "$@"
