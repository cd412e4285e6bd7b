#!/bin/sh
# apps/commit.sh OUT: writes the C header OUT with the build's commit,
#
#   #define SCC_BUILD_COMMIT "0123456789ab"        (or "0123456789ab-dirty")
#
# which the benchmarks print in their CSV's first lines (apps/benchout.h),
# so that a result says which code made it. -dirty: tracked files differ
# from the commit. Outside a git work tree of its own (a tarball), the
# commit is "unknown". OUT is rewritten only when its text changes, so
# that the apps are rebuilt only then. Twelve hex digits, always: the
# string's length does not depend on how many objects the repository has.
set -eu
out=${1:?usage: commit.sh OUT}
src=$(cd "$(dirname "$0")/.." && pwd -P)
commit=unknown
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null || true)
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$src" ] &&
   head=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null); then
    commit=$head
    # diff, not status: it never writes the index (another git may hold it)
    git -C "$src" diff --quiet HEAD -- 2>/dev/null || commit=$commit-dirty
fi
text="/* written by apps/commit.sh: the commit the apps were built from */
#define SCC_BUILD_COMMIT \"$commit\""
mkdir -p "$(dirname "$out")"
if [ ! -f "$out" ] || [ "$(cat "$out")" != "$text" ]; then
    printf '%s\n' "$text" > "$out.tmp"
    mv "$out.tmp" "$out"
fi
