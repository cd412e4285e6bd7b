#!/usr/bin/env bash
# Runs the timing mode's reference programs and writes everything they
# report in modeled time (their output and every counter of
# --timing-stats) into DIR, so that two QEMU builds can be compared byte
# for byte: a change that should not move the model must leave `diff -r`
# of the two directories empty (diff -r -x '*.err' A B: the .err files
# hold each run's stderr, for when one failed).
#
# Usage: scripts/check-modeled.sh DIR
#   SCC_QEMU=...   the QEMU binary
#   APPS=DIR       the app ELFs (default build/apps): keep a copy of them to
#                  compare two QEMUs while the apps are being rebuilt
#   TIMEOUT=S      each run's time limit (default 3000: a busy host is slow)
# A run that fails says so on stderr (and DIR/NAME.err keeps its stderr):
# an empty output must never pass for an unchanged one.
set -euo pipefail
out=${1:?usage: check-modeled.sh DIR}
cd "$(dirname "$0")/.."
apps=${APPS:-build/apps}
mkdir -p "$out"
run() {     # NAME APP CORES ARGS...
    local name=$1 app=$2 cores=$3
    shift 3
    if ! tools/scc-run --timing --timeout "${TIMEOUT:-3000}" \
            --timing-stats "$out/$name.stats.csv" --app "$apps/$app.elf" \
            --cores "$cores" -- "$@" 2>"$out/$name.err" |
            grep -v '^qemu-system' > "$out/$name.out"; then
        echo "check-modeled: $name failed (see $out/$name.err)" >&2
    fi
}
all=$(seq -s ' ' 0 47)
run bcast bcast_bench 0-47 48 0.533 $all --sizes 32,4096,65536 --iters 2 --warmup 1 --alg all
run calibrate calibrate 0-47 48 0.533 $all
run ipi ipi_latency 0-47
run notify notify_pingpong 0-47 48 0.533 $all --n 50 --scheme all
# Every other benchmark of apps/, small: so that a change of the apps
# themselves (apps/lib, a parser) is seen too. Their arguments are in the
# forms every build of them took (key=value for the four that once took
# only that), so two builds of the apps compare too.
run pingpong pingpong 0,47 2 0.533 0 47 sizes=32,4096,65536 budget=64K
run allreduce allreduce_bench 0-15 16 0.533 $(seq -s ' ' 0 15) --sizes 32,4096 --iters 2 \
    --warmup 1
run mem_bench mem_bench 0 1 0.533 0 --sizes 8K,512K --reps 2 --warmup 1
run mpb_contention mpb_contention 0-3 4 0.533 0 1 2 3 --ops get,put --counts 1,4 --iters 3 \
    --warmup 1
run many_to_one many_to_one 0-47 48 0.533 $all --records 10
