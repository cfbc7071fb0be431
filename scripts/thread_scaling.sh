#!/usr/bin/env bash
# Thread scaling of the lazy SMP search: nodes/second and time to a fixed depth over the bench
# positions, for 1, 2, 4, ... threads up to the number of cores (or the list given).
#
#   scripts/thread_scaling.sh                 # 1 2 4 8 16 ... up to nproc, depth 12, 64 MB hash
#   DEPTH=14 HASH=256 scripts/thread_scaling.sh 1 2 4 8 16
#
# nps speed-up = nps(N) / nps(1); time-to-depth speed-up = time(1) / time(N). Lazy SMP threads
# search overlapping trees, so time-to-depth gains less than nps: both are reported.
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${DEPTH:-12}
hash=${HASH:-64}
cargo build --release --quiet
bin=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/release/chuhan
if [ $# -gt 0 ]; then
    threads=("$@")
else
    threads=()
    n=1
    while [ "$n" -le "$(nproc)" ]; do threads+=("$n"); n=$((n * 2)); done
fi
printf '%8s %14s %10s %12s %10s\n' threads nodes/s nps-x time-ms ttd-x
base_nps=""
base_ms=""
for t in "${threads[@]}"; do
    out=$("$bin" bench "$depth" "$t" "$hash")
    nps=$(awk '/Nodes\/second/ {print $2}' <<<"$out")
    ms=$(awk '/Total time/ {print $4}' <<<"$out")
    base_nps=${base_nps:-$nps}
    base_ms=${base_ms:-$ms}
    awk -v t="$t" -v nps="$nps" -v ms="$ms" -v bn="$base_nps" -v bm="$base_ms" \
        'BEGIN { printf "%8s %14s %10.2f %12s %10.2f\n", t, nps, nps / bn, ms, bm / ms }'
done
