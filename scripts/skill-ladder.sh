#!/usr/bin/env bash
# Measure Chuhan's `Skill Level` ladder: each level against the next one up, books off, then one
# rating list over every game (`chuhan match rate`). Resumable: a pairing whose PGN already
# holds GAMES finished games is skipped, so a later run (or another machine) carries on.
#
# usage: scripts/skill-ladder.sh [LEVEL...]       default levels: 0 2 4 ... 18
#
# Settings (environment, with defaults):
#   CHUHAN=target/release/chuhan   the engine measured (and the match runner)
#   GAMES=40                        games per pairing (pairs of colours, shuffled openings)
#   TC=60+1                         time control; levels below 20 are capped by nodes, so the
#                                   clock never binds and the result does not depend on load
#   CONCURRENCY=2                   games at once
#   OUT=target/ladder               PGN files, one per pairing: L<a>-L<b>.pgn
#   ELEPHANTEYE=                    path to ElephantEye 3.31 (UCCI): also play the anchor round
#                                   robin, Chuhan (full strength), the top level and ElephantEye
#                                   at ANCHOR_TC=10+0.1, ANCHOR_GAMES=16 per pairing, books off,
#                                   into OUT/anchor.pgn, and pin ElephantEye to ANCHOR_ELO=2500
# Levels are players named L<level>, full strength "Chuhan"; any other PGN under OUT with
# players named the same (a round robin with MaxQi, say) joins the one rating list.
set -euo pipefail

chuhan=${CHUHAN:-target/release/chuhan}
games=${GAMES:-40}
tc=${TC:-60+1}
concurrency=${CONCURRENCY:-2}
out=${OUT:-target/ladder}
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(0 2 4 6 8 10 12 14 16 18)
mkdir -p "$out"

finished() { # finished games in a PGN file
    [ -f "$1" ] || { echo 0; return; }
    grep -cE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$1" || true
}

# Each level's knob, as the engine reports it (`d`), for scripts/skill-ladder-fit.py.
for l in "${levels[@]}"; do
    knob=$(printf 'uci\nsetoption name Skill Level value %s\nd\nquit\n' "$l" | "$chuhan" |
        sed -n 's/^Strength: .*knob \([0-9.]*\),.*/\1/p')
    printf 'L%s\t%s\n' "$l" "$knob"
done >"$out/knobs.tsv"

for ((i = 0; i + 1 < ${#levels[@]}; i++)); do
    a=${levels[i]} b=${levels[i + 1]}
    pgn="$out/L$a-L$b.pgn"
    have=$(finished "$pgn")
    if [ "$have" -ge "$games" ]; then
        echo "L$a vs L$b: $have games already in $pgn"
        continue
    fi
    # A pairing cut short is played again from the start: its partial PGN is set aside.
    [ -f "$pgn" ] && mv "$pgn" "$pgn.partial"
    echo "L$a vs L$b: $games games at $tc"
    "$chuhan" match \
        -engine cmd="$chuhan" name="L$a" proto=uci "option.Skill Level=$a" \
        -engine cmd="$chuhan" name="L$b" proto=uci "option.Skill Level=$b" \
        -each option.OwnBook=false option.Hash=16 \
        -tc "$tc" -games "$games" -concurrency "$concurrency" -shuffle "$a" \
        -pgnout "$pgn" | grep -E '^(L[0-9]+ vs|  Elo|Terminations)'
done

anchor=()
if [ -n "${ELEPHANTEYE:-}" ]; then
    top=${levels[${#levels[@]} - 1]}
    pgn="$out/anchor.pgn"
    want=$((3 * ${ANCHOR_GAMES:-16}))
    if [ "$(finished "$pgn")" -lt "$want" ]; then
        [ -f "$pgn" ] && mv "$pgn" "$pgn.partial"
        echo "anchor: Chuhan, L$top, ElephantEye at ${ANCHOR_TC:-10+0.1}"
        "$chuhan" match \
            -engine cmd="$chuhan" name=Chuhan proto=uci option.OwnBook=false option.Hash=16 \
            -engine cmd="$chuhan" name="L$top" proto=uci "option.Skill Level=$top" \
            option.OwnBook=false option.Hash=16 \
            -engine cmd="$ELEPHANTEYE" name=ElephantEye proto=ucci option.usebook=false \
            option.hashsize=16 \
            -tc "${ANCHOR_TC:-10+0.1}" -games "${ANCHOR_GAMES:-16}" \
            -concurrency "$concurrency" -shuffle 1 -pgnout "$pgn" | tail -n 3
    fi
    anchor=(-anchor "ElephantEye=${ANCHOR_ELO:-2500}")
    # Full strength's place on the knob: its mean seconds a move in the anchor games times
    # bench's nodes/s, turned into a knob by the node budget 100 * 2^(0.55 k) of
    # src/search/strength.rs, and at least 20, where the weighted choice stops (a level that
    # chooses among four lines plays far below its nodes: 2026-12-06, L19 at knob 19 was 680
    # Elo below full strength, whose nodes a move put it at 18.4 under load).
    nps=$("$chuhan" bench 2>&1 | sed -n 's/^Nodes\/second *: *//p')
    python3 - "$pgn" "$nps" >"$out/full-knob.txt" <<'PY'
import math, re, sys
games = open(sys.argv[1]).read().split("[Game ")
times = []
for g in games:
    red = re.search(r'\[Red "([^"]*)"\]', g)
    if not red:
        continue
    chuhan_is_red = red.group(1) == "Chuhan"
    if not chuhan_is_red and '[Black "Chuhan"]' not in g:
        continue
    comments = re.findall(r"\{([^}]*)\}", g)[0 if chuhan_is_red else 1 :: 2]
    times += [m.group(1) for c in comments if (m := re.search(r"([0-9.]+)s$", c))]
nodes = sum(map(float, times)) / len(times) * float(sys.argv[2])
print(f"{max(20.0, math.log2(nodes / 100) / 0.55):.2f}")
PY
fi
"$chuhan" match rate "${anchor[@]}" "$out"/*.pgn | tee "$out/ratings.txt"
