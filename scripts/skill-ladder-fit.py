#!/usr/bin/env python3
"""Turn a measured Skill Level ladder into the `LADDER` table of src/search/strength.rs.

usage: scripts/skill-ladder-fit.py OUT

OUT is scripts/skill-ladder.sh's output folder. It reads OUT/ratings.txt (the `chuhan match
rate` list, ElephantEye pinned), OUT/knobs.tsv (each level's player name and knob, as the
engine's `d` command reported them when the games were played) and OUT/full-knob.txt (the knob
whose node budget matches full strength's nodes a move at the anchor time control). It prints
the rungs, strictly rising: players out of order on the knob are pooled with their neighbours
(isotonic regression weighted by games), as a ladder of noisy ratings must be monotone.
"""
import re
import sys
from pathlib import Path


def read_ratings(path):
    ratings = {}
    for line in Path(path).read_text().splitlines():
        m = re.match(r"\s+\d+\s+(\S+)\s+([+-]?\d+(?:\.\d+)?)\s+(\S+)\s+(\d+)\s", line)
        if m:
            ratings[m.group(1)] = (float(m.group(2)), float(m.group(3)), int(m.group(4)))
    return ratings


def pooled(points):
    """Isotonic regression of (knob, elo, weight), knob ascending: pool adjacent violators."""
    blocks = []  # [knob_sum, elo_sum, weight]
    for knob, elo, w in points:
        blocks.append([knob * w, elo * w, w])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            k, e, w2 = blocks.pop()
            blocks[-1] = [blocks[-1][0] + k, blocks[-1][1] + e, blocks[-1][2] + w2]
    return [(k / w, e / w) for k, e, w in blocks]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    ratings = read_ratings(out / "ratings.txt")
    knobs = {}
    for line in (out / "knobs.tsv").read_text().splitlines():
        name, knob = line.split("\t")
        knobs[name] = float(knob)
    knobs["Chuhan"] = float((out / "full-knob.txt").read_text())
    missing = [n for n in knobs if n not in ratings]
    if missing:
        sys.exit(f"no rating for {missing} in {out / 'ratings.txt'}")
    points = sorted((knobs[n], ratings[n][0], ratings[n][2]) for n in knobs)
    print("// name: knob, measured Elo, +-95%, games")
    for n in sorted(knobs, key=knobs.get):
        elo, err, games = ratings[n]
        print(f"//   {n}: {knobs[n]:.2f}, {elo:+.1f}, {err:.1f}, {games}")
    rungs = pooled(points)
    print("#[rustfmt::skip]")
    print(f"pub const LADDER: [Rung; {len(rungs)}] = [")
    for knob, elo in rungs:
        print(f"    Rung {{ knob: {round(knob, 2)}, elo: {elo:.0f}.0 }},")
    print("];")


if __name__ == "__main__":
    main()
