#!/usr/bin/env bash
# The smoke test of chuhan.exe under Wine, against the Linux build of the same source: what a
# Windows GUI and a release need. scripts/build-windows.sh runs it inside its build root; it
# runs on any machine with Wine. Usage:
#   scripts/windows-smoke.sh WINDOWS_EXE LINUX_BINARY EXPECTED_BENCH_NODES
# Checks, each printed as one `ok`/`FAIL` line:
#   - the handshake in both dialects, sent with CRLF line ends: stdout byte for byte the Linux
#     build's (so no stray console output), stderr empty;
#   - `bench`: the node count of the Linux build and of the `Bench:` line;
#   - `perft 5` from the start: 133312995;
#   - BookFile and EvalFile given Windows paths with spaces (`C:\Chuhan Smoke\...`): loaded,
#     and a missing file is a clear `info string`, the engine still answering;
#   - two games of `chuhan match`, the Linux binary against the .exe run as `cmd=wine
#     arg=chuhan.exe`, both ending by the rules.
# Env: WINEPREFIX (default: a fresh one under $TMPDIR), SMOKE_MATCH_TC (default nodes=20000).
set -uo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 WINDOWS_EXE LINUX_BINARY EXPECTED_BENCH_NODES" >&2
    exit 2
fi
exe=$(realpath "$1")
linux=$(realpath "$2")
expected_bench=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
for f in "$exe" "$linux"; do
    [ -f "$f" ] || { echo "windows smoke: no file '$f'" >&2; exit 2; }
done
command -v wine >/dev/null || { echo "windows smoke: wine is not installed" >&2; exit 2; }
# Debian keeps wineserver off the PATH, in the multiarch library folder.
wineserver=$(command -v wineserver || find /usr/lib -path '*/wine/wineserver' 2>/dev/null | head -n 1)
[ -n "$wineserver" ] || { echo "windows smoke: no wineserver found" >&2; exit 2; }

export WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
export WINEPREFIX=${WINEPREFIX:-$(mktemp -d)/wine}
# Without it the Wine process that starts the wineserver writes an error on stderr, which the
# checks would take for the engine's.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
    XDG_RUNTIME_DIR=$(mktemp -d)
    export XDG_RUNTIME_DIR
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

if [ ! -f "$WINEPREFIX/system.reg" ]; then
    start=$(date +%s)
    wineboot --init >/dev/null 2>&1
    "$wineserver" --wait
    echo "wine prefix made in $(($(date +%s) - start)) s ($WINEPREFIX)"
fi

# One wineserver for the whole test: started afresh by each Wine process, it can take longer
# on a loaded machine than the match runner waits for a handshake (10 s).
"$wineserver" --persistent

# One session: the lines of $2 (CRLF ends, as a Windows GUI writes them) to engine $1.
session() {
    local engine=$1 lines=$2
    # shellcheck disable=SC2086 # one command a word
    printf '%s\r\n' $lines | "${@:3}" "$engine"
}

# The handshake, both dialects: Windows stdout equals Linux stdout, nothing on stderr.
for dialect in ucci uci; do
    input="$dialect isready quit"
    session "$linux" "$input" >"$work/linux.out" 2>"$work/linux.err"
    session "$exe" "$input" wine >"$work/win.out" 2>"$work/win.err"
    answer=$([ "$dialect" = ucci ] && echo ucciok || echo uciok)
    if ! grep -qx "$answer" "$work/win.out"; then
        fail "handshake $dialect: no '$answer' line; stdout: $(head -c 300 "$work/win.out")"
    elif ! cmp -s "$work/linux.out" "$work/win.out"; then
        fail "handshake $dialect: stdout differs from the Linux build's"
        diff "$work/linux.out" "$work/win.out" | head -10
    elif [ -s "$work/win.err" ]; then
        fail "handshake $dialect: stray stderr: $(head -c 300 "$work/win.err")"
    else
        ok "handshake $dialect (CRLF input): '$answer', $(wc -l <"$work/win.out") lines as on Linux, stderr empty"
    fi
done

# The search signature.
nodes() { sed -n 's/^Nodes searched: *\([0-9][0-9]*\)\r\{0,1\}$/\1/p' "$1"; }
"$linux" bench >"$work/bench.linux" 2>&1
wine "$exe" bench >"$work/bench.win" 2>&1
linux_nodes=$(nodes "$work/bench.linux")
win_nodes=$(nodes "$work/bench.win")
win_nps=$(sed -n 's/^Nodes\/second: *\([0-9]*\).*/\1/p' "$work/bench.win")
linux_nps=$(sed -n 's/^Nodes\/second: *\([0-9]*\).*/\1/p' "$work/bench.linux")
if [ "$win_nodes" = "$expected_bench" ] && [ "$linux_nodes" = "$expected_bench" ]; then
    ok "bench: $win_nodes nodes, as the Linux build and the 'Bench:' line ($win_nps nps under Wine, $linux_nps on Linux)"
else
    fail "bench: .exe ${win_nodes:-nothing}, Linux ${linux_nodes:-nothing}, 'Bench:' line $expected_bench"
fi

# Move generation.
wine "$exe" perft 5 >"$work/perft" 2>&1
perft_nodes=$(nodes "$work/perft")
perft_time=$(sed -n 's/^Time: \([0-9]*\) ms.*/\1/p' "$work/perft")
if [ "$perft_nodes" = 133312995 ]; then
    ok "perft 5: $perft_nodes (${perft_time} ms)"
else
    fail "perft 5: ${perft_nodes:-nothing}, expected 133312995"
fi

# File options with a Windows path with spaces, as a GUI's file dialog gives them.
dir="$WINEPREFIX/drive_c/Chuhan Smoke"
mkdir -p "$dir"
cp "$repo/book/chuhan.book" "$dir/opening book.book"
cp "$repo/nets/default.nnue" "$dir/my network.nnue"
winpath='C:\Chuhan Smoke'
printf '%s\r\n' uci \
    "setoption name BookFile value $winpath\\opening book.book" \
    "setoption name EvalFile value $winpath\\my network.nnue" \
    "setoption name BookFile value $winpath\\no such book.book" \
    isready "position startpos" "go depth 4" isready quit |
    wine "$exe" >"$work/files.out" 2>"$work/files.err"
net_line=$(grep -F "network file '$winpath\\my network.nnue' loaded" "$work/files.out")
book_refused=$(grep -cF "option 'BookFile': book file '$winpath\\opening book.book'" "$work/files.out")
missing=$(grep -F "'$winpath\\no such book.book'" "$work/files.out")
if [ -n "$net_line" ] && [ "$book_refused" = 0 ] && [ -n "$missing" ] &&
    grep -q '^bestmove ' "$work/files.out" && [ ! -s "$work/files.err" ]; then
    ok "Windows paths with spaces: BookFile and EvalFile loaded; a missing file: ${missing#info string }"
else
    fail "Windows paths with spaces: net '$net_line', book refused $book_refused times," \
        "missing '$missing', bestmove $(grep -c '^bestmove ' "$work/files.out")"
    grep -v '^option \|^id ' "$work/files.out" | head -20
    echo "stderr: $(head -c 300 "$work/files.err")"
fi

# Two games, Linux against Windows, by the match runner, the .exe run through Wine.
tc=${SMOKE_MATCH_TC:-nodes=20000}
"$linux" match -engine cmd="$linux" name=linux \
    -engine cmd=wine arg="$exe" name=windows \
    -each option.Hash=16 -tc "$tc" -games 2 -concurrency 1 -timeout 120 \
    -pgnout "$work/match.pgn" >"$work/match.out" 2>&1
terminations=$(grep '^Terminations:' "$work/match.out")
score=$(grep -m 1 '^linux vs windows:' "$work/match.out")
if [ "$terminations" = "Terminations: rules 2" ]; then
    ok "match, 2 games at $tc, Linux vs 'cmd=wine arg=chuhan.exe': both by the rules; ${score}"
    grep -h '^\[Termination\|^\[Result' "$work/match.pgn" | paste -sd ' ' | sed 's/^/     /'
else
    fail "match: ${terminations:-no Terminations line}"
    tail -20 "$work/match.out"
fi

"$wineserver" --kill 2>/dev/null
if [ "$failures" -gt 0 ]; then
    echo "windows smoke: $failures check(s) failed"
    exit 1
fi
echo "windows smoke: all checks passed"
