#!/usr/bin/env bash
# The search signature check (Stockfish's convention): the `Bench: N` line of the newest commit
# that carries one must equal the node count `chuhan bench` prints now, so a change of the search
# cannot land with a stale signature. Usage: scripts/bench_signature.sh [path/to/chuhan]
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${1:-target/release/chuhan}
expected=$(git log --format=%B 2>/dev/null | sed -n 's/^Bench: *\([0-9][0-9]*\) *$/\1/p' | head -n 1)
if [ -z "$expected" ]; then
    echo "bench signature: no commit carries a 'Bench: N' line; nothing to check" >&2
    exit 0
fi
actual=$("$engine" bench 2>/dev/null | sed -n 's/^Nodes searched: *\([0-9][0-9]*\)$/\1/p')
if [ "$actual" != "$expected" ]; then
    echo "bench signature: the newest 'Bench:' line says $expected, chuhan bench prints ${actual:-nothing}" >&2
    exit 1
fi
echo "bench signature: $actual nodes, as the newest 'Bench:' line says"
