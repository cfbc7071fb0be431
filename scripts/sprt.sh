#!/usr/bin/env bash
# Build two commits of Chuhan and run an SPRT between them with `chuhan match`.
# This is how every strength change is checked: NEW must pass against BASE.
#
# usage: scripts/sprt.sh NEW BASE [extra `chuhan match` options...]
#   NEW, BASE   any git revision (commit, branch, tag); commit your change first
#   e.g.        scripts/sprt.sh HEAD main
#               TC=5+0.05 ELO0=0 ELO1=10 scripts/sprt.sh my-branch main -concurrency 3
#
# Settings (environment, with defaults):
#   TC=10+0.1        time control (base+inc seconds, or st=S, depth=N, nodes=N)
#   ELO0=0 ELO1=5    SPRT bounds;  ALPHA=0.05 BETA=0.05;  MODEL=logistic (or normalized)
#   PROTO=ucci       protocol the engines are driven with (ucci or uci)
#   HASH=16          hash size (MB) given to both engines
#   RULES=chinese    referee's repetition rules (chinese, asian, draw)
#   OUT=<repo>/target/sprt   binaries, sources and PGN go here
#   PROFILE=release  cargo profile for the builds (dev only to try the script quickly)
# The runner is the NEW build's `chuhan match` unless RUNNER=/path/to/chuhan is given.
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
new_ref=$1
base_ref=$2
shift 2

repo=$(git rev-parse --show-toplevel)
out=${OUT:-$repo/target/sprt}
profile=${PROFILE:-release}
target=${SPRT_TARGET_DIR:-$out/target}
mkdir -p "$out"

# Build one revision from a clean export of it (no worktree, no checkout); prints the binary.
build() {
    local sha src bin dir
    sha=$(git -C "$repo" rev-parse --verify "$1^{commit}")
    bin="$out/chuhan-${sha:0:12}-$profile"
    if [ ! -x "$bin" ]; then
        src="$out/src-${sha:0:12}"
        rm -rf "$src"
        mkdir -p "$src"
        git -C "$repo" archive "$sha" | tar -x -C "$src"
        # `git archive` dates every file at its commit, older than the other build's output in
        # a shared target directory; cargo judges freshness by those dates (and paths relative
        # to the package), so without this it would hand back the other revision's binary.
        find "$src" -type f -exec touch {} +
        echo "building $1 (${sha:0:12}, $profile)..." >&2
        (cd "$src" && CARGO_TARGET_DIR="$target" cargo build --profile "$profile" --bin chuhan --quiet)
        dir=$profile
        [ "$profile" = dev ] && dir=debug
        cp "$target/$dir/chuhan" "$bin"
        rm -rf "$src"
    fi
    echo "$bin"
}

new_bin=$(build "$new_ref")
base_bin=$(build "$base_ref")
runner=${RUNNER:-$new_bin}
new_name="new-$(git -C "$repo" rev-parse --short "$new_ref")"
base_name="base-$(git -C "$repo" rev-parse --short "$base_ref")"
pgn="$out/$new_name-vs-$base_name.pgn"

echo "SPRT: $new_name ($new_ref) vs $base_name ($base_ref), tc ${TC:-10+0.1}, PGN $pgn" >&2
exec "$runner" match \
    -engine cmd="$new_bin" name="$new_name" \
    -engine cmd="$base_bin" name="$base_name" \
    -each proto="${PROTO:-ucci}" option.hashsize="${HASH:-16}" option.usebook=false \
    -tc "${TC:-10+0.1}" \
    -rules "${RULES:-chinese}" \
    -sprt elo0="${ELO0:-0}" elo1="${ELO1:-5}" alpha="${ALPHA:-0.05}" beta="${BETA:-0.05}" \
        model="${MODEL:-logistic}" \
    -pgnout "$pgn" \
    "$@"
