#!/usr/bin/env python3
"""Play the endgame suite out (by hand, not in CI): every position of tests/data/endgames.tsv,
both colours, through `chuhan match`, and the results set against the suite's verdicts.

    cargo build --release
    python3 scripts/endgame_playout.py [--tc 10+0.1] [--opponent CMD [--opponent-proto ucci]]
                                       [--concurrency 1] [--pgn FILE] [--only ID,ID...]

Without --opponent Chuhan plays itself; with one (e.g. ElephantEye, `--opponent eleeye
--opponent-proto ucci`), Chuhan plays the stronger side in one game of each pair and the weaker
in the other. A position is shown right in play when:

- win: the stronger side wins every game;
- draw: no game is won by the stronger side (a win by the weaker side is a blunder, shown apart);
- hard: the stronger side wins at most one game of the pair (the sources call these mostly
  drawn: a defence that holds shows it; one win is allowed, since Chuhan also defends).

Books are off (the positions are far from any opening). Prints one line per position and the
totals; the PGN of every game goes to --pgn (default target/endgame-playout.pgn).
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def suite():
    rows = []
    for line in (ROOT / "tests/data/endgames.tsv").read_text().splitlines():
        if not line or line.startswith("#") or line.startswith("id\t"):
            continue
        cols = line.split("\t")
        rows.append({"id": cols[0], "fen": cols[1], "verdict": cols[2], "stronger": cols[3]})
    return rows


def board_key(fen):
    """The board and side to move of a FEN: what identifies a suite position in a PGN."""
    parts = fen.split()
    return " ".join(parts[:2])


def games(pgn_text):
    """(FEN, Red, Black, Result) of each game of a PGN file."""
    out = []
    for chunk in re.split(r"\n(?=\[Event )", pgn_text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
        if "Result" in tags and "FEN" in tags:
            out.append((tags["FEN"], tags.get("Red"), tags.get("Black"), tags["Result"]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=str(ROOT / "target/release/chuhan"))
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--opponent", help="the other engine's command (default: Chuhan itself)")
    ap.add_argument("--opponent-proto", default="ucci")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--pgn", default=str(ROOT / "target/endgame-playout.pgn"))
    ap.add_argument("--only", help="comma-separated suite ids")
    args = ap.parse_args()

    rows = suite()
    if args.only:
        wanted = set(args.only.split(","))
        rows = [r for r in rows if r["id"] in wanted]
        if not rows:
            sys.exit("endgame_playout: no suite position has those ids")
    by_key = {board_key(r["fen"]): r for r in rows}

    pgn = Path(args.pgn)
    pgn.parent.mkdir(parents=True, exist_ok=True)
    pgn.unlink(missing_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".fen", delete=False) as f:
        for r in rows:
            f.write(f"{r['fen']} - - 0 1\n")
        openings = f.name

    chuhan = ["-engine", f"cmd={args.engine}", "name=Chuhan", "option.OwnBook=false"]
    if args.opponent:
        other = ["-engine", f"cmd={args.opponent}", "name=Opponent",
                 f"proto={args.opponent_proto}"]
        if args.opponent_proto == "ucci":
            other.append("option.usebook=false")
    else:
        other = ["-engine", f"cmd={args.engine}", "name=Chuhan-2", "option.OwnBook=false"]
    cmd = [args.engine, "match", *chuhan, *other, "-openings", openings,
           "-games", str(2 * len(rows)), "-tc", args.tc,
           "-concurrency", str(args.concurrency), "-pgnout", str(pgn)]
    print(" ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    Path(openings).unlink()

    results = {}
    for fen, red, black, result in games(pgn.read_text()):
        row = by_key.get(board_key(fen))
        if row is None:
            continue
        strong = red if row["stronger"] == "red" else black
        score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        strong_score = score if row["stronger"] == "red" else 1.0 - score
        results.setdefault(row["id"], []).append((strong, strong_score))

    right = 0
    blunders = 0
    print(f"{'id':12} {'verdict':7} stronger side's score per game (who played it)  in play")
    for r in rows:
        played = results.get(r["id"], [])
        wins = sum(1 for _, s in played if s == 1.0)
        losses = sum(1 for _, s in played if s == 0.0)
        if r["verdict"] == "win":
            ok = len(played) == 2 and wins == 2
        elif r["verdict"] == "draw":
            ok = len(played) == 2 and wins == 0
        else:
            ok = len(played) == 2 and wins <= 1
        right += ok
        blunders += losses if r["verdict"] != "win" else 0
        shown = ", ".join(f"{s:g} ({who})" for who, s in played)
        print(f"{r['id']:12} {r['verdict']:7} {shown:48} {'right' if ok else 'WRONG'}")
    print(f"{right}/{len(rows)} shown right in play at {args.tc}; "
          f"the weaker side won {blunders} game(s) of the draws and hard ones; PGN: {pgn}")


if __name__ == "__main__":
    main()
