#!/usr/bin/env bash
# Runs the timing mode's reference programs and writes everything they
# report in modeled time (their output and every counter of
# --timing-stats) into DIR, so that two QEMU builds can be compared byte
# for byte: a change that should not move the model must leave `diff -r`
# of the two directories empty.
#
# Usage: scripts/check-modeled.sh DIR        (SCC_QEMU=... picks the binary)
set -euo pipefail
out=${1:?usage: check-modeled.sh DIR}
cd "$(dirname "$0")/.."
mkdir -p "$out"
run() {     # NAME APP CORES ARGS...
    local name=$1 app=$2 cores=$3
    shift 3
    tools/scc-run --timing --timeout 600 --timing-stats "$out/$name.stats.csv" \
        --app "build/apps/$app.elf" --cores "$cores" -- "$@" \
        2>/dev/null | grep -v '^qemu-system' > "$out/$name.out" || true
}
all=$(seq -s ' ' 0 47)
run bcast bcast_bench 0-47 48 0.533 $all --sizes 32,4096,65536 --iters 2 --warmup 1 --alg all
run calibrate calibrate 0-47 48 0.533 $all
run ipi ipi_latency 0-47
run notify notify_pingpong 0-47 48 0.533 $all --n 50 --scheme all
