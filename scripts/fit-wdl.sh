#!/usr/bin/env bash
# Refits UCI_ShowWDL's win/draw/loss model to the built-in network's own games; run it for each
# shipped network. It plays shards 1..SHARDS of one deterministic self-play run (`datagen
# --games 64000 --shard K/640 --seed SEED --nodes 5000`, about 12 500 records and 2-3 minutes a
# shard on one core), skipping shards DATA_DIR already holds, fits the model
# (`chuhan datagen wdl`), writes it to src/protocol/wdl_fit.rs and the fit's report to
# docs/wdl-fit.txt. Commit both; the report says how well the model fits.
#
# Usage: scripts/fit-wdl.sh [SHARDS] [DATA_DIR] [JOBS] [SEED]
#   SHARDS    shards of the run to fit on (default 16, about 200 000 records)
#   DATA_DIR  where the shards are kept (default target/wdl-data/NET-sSEED, NET the network's
#             sha256 prefix, so data of an older network is never mixed in)
#   JOBS      shards played at once (default 1)
#   SEED      the run's seed (default 4); a training round's own shards of the built-in
#             network (docs/nnue.md) are this run with that round's seed, so DATA_DIR can be
#             that round's data and nothing is replayed. Datagen is deterministic for a seed on
#             any thread count.
set -euo pipefail
cd "$(dirname "$0")/.."
shards=${1:-16}
jobs=${3:-1}
seed=${4:-4}
net=$(sha256sum nets/default.nnue | cut -c1-16)
dir=${2:-target/wdl-data/$net-s$seed}
case "$shards$jobs$seed" in
    *[!0-9]*) echo "fit-wdl: SHARDS, JOBS and SEED are numbers" >&2; exit 2 ;;
esac
[ "$shards" -ge 1 ] && [ "$shards" -le 640 ] || { echo "fit-wdl: SHARDS is 1..640" >&2; exit 2; }

cargo build --release --quiet
target_dir=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
engine="$target_dir/release/chuhan"
mkdir -p "$dir"

play() {
    local f
    f=$(printf '%s/part-%03d.bin' "$dir" "$1")
    [ -f "$f" ] && return 0
    "$engine" datagen -o "$f" --games 64000 --shard "$1/640" --seed "$seed" --nodes 5000 \
        --threads 1 >"$f.log" 2>&1 || { echo "fit-wdl: shard $1 failed, see $f.log" >&2; return 1; }
}
export -f play
export engine dir seed
seq 1 "$shards" | xargs -P "$jobs" -I{} bash -c 'play {}'

files=()
for k in $(seq 1 "$shards"); do files+=("$(printf '%s/part-%03d.bin' "$dir" "$k")"); done
commit=$(git rev-parse --short HEAD)
source="self-play of the built-in network (nets/default.nnue, sha256 $net…) at commit $commit, \
datagen --games 64000 --seed $seed --nodes 5000, shards 1..$shards of 640"
{
    echo "# The WDL model's last fit (scripts/fit-wdl.sh $shards DATA_DIR JOBS $seed), read in docs/wdl.md"
    echo "# data: $source"
    "$engine" datagen wdl -o src/protocol/wdl_fit.rs --source "$source" "${files[@]}"
} | grep -v '^wrote the model' >docs/wdl-fit.txt
rustfmt --edition 2021 src/protocol/wdl_fit.rs
cat docs/wdl-fit.txt
echo "fit-wdl: wrote src/protocol/wdl_fit.rs and docs/wdl-fit.txt"
