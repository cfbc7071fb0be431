#!/usr/bin/env python3
"""Turn a measured Skill Level ladder into the `LADDER` table of src/search/strength.rs.

usage: scripts/skill-ladder-fit.py OUT

OUT is scripts/skill-ladder.sh's output folder. It reads OUT/ratings.txt (the `chuhan match
rate` list, ElephantEye pinned), OUT/knobs.tsv (each level's player name and knob, as the
engine's `d` command reported them when the games were played) and OUT/full-knob.txt (the knob
whose node budget matches full strength's nodes a move at the anchor time control). It prints
the rungs, strictly rising.

Self-play spreads levels far apart (2026-12-06: knob 7 to 19 spanned 1 740 Elo against each
other but 630 against ElephantEye and MaxQi), so a rung's rating comes from the levels that met
an outside engine (a player with no knob). Below the weakest of them, only the self-play
ladder's shape is known: those rungs are the self-play ratings shifted to meet it. Players out
of order on the knob are pooled with their neighbours (isotonic regression weighted by games).
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


def met_outside(path, knobs):
    """Players with a knob who played a player without one (ElephantEye, MaxQi)."""
    met = set()
    lines = Path(path).read_text().split("Pairwise")[-1].splitlines()
    for line in lines:
        m = re.match(r"\s+(\S+)\s+(\S+)\s+\d+ games", line)
        if m:
            a, b = m.groups()
            if a in knobs and b not in knobs:
                met.add(a)
            if b in knobs and a not in knobs:
                met.add(b)
    return met


def interpolate(points, knob):
    """The rating at `knob` on the line through (knob, elo) points, knob ascending."""
    for (k0, e0), (k1, e1) in zip(points, points[1:]):
        if k0 <= knob <= k1:
            return e0 + (e1 - e0) * (knob - k0) / (k1 - k0)
    return points[-1][1] if knob > points[-1][0] else points[0][1]


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
    outside = met_outside(out / "ratings.txt", knobs)
    if not outside:
        sys.exit("no level met an outside engine: nothing anchors the ladder")
    points = sorted((knobs[n], ratings[n][0], ratings[n][2]) for n in outside)
    low = points[0][0]
    self_play = sorted((knobs[n], ratings[n][0]) for n in knobs if n not in outside)
    below = [(k, e) for k, e in self_play if k < low]
    if below:
        shift = points[0][1] - interpolate(self_play, low)
        games = {knobs[n]: ratings[n][2] for n in knobs}
        points = sorted([(k, e + shift, games[k]) for k, e in below] + points)
        print(f"// below knob {low}: self-play ratings shifted by {shift:+.1f}")
    print("// name: knob, measured Elo, +-95%, games (* met an outside engine)")
    for n in sorted(knobs, key=knobs.get):
        elo, err, games = ratings[n]
        star = "*" if n in outside else ""
        print(f"//   {n}{star}: {knobs[n]:.2f}, {elo:+.1f}, {err:.1f}, {games}")
    rungs = pooled(points)
    print("#[rustfmt::skip]")
    print(f"pub const LADDER: [Rung; {len(rungs)}] = [")
    for knob, elo in rungs:
        print(f"    Rung {{ knob: {round(knob, 2)}, elo: {elo:.0f}.0 }},")
    print("];")


if __name__ == "__main__":
    main()
