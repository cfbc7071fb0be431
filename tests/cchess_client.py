#!/usr/bin/env python3
"""Drive Chuhan through PyPI `cchess` (walker8088's library, the engine layer of GUIs such as
XQMagic), in UCCI and in UCI, and check that every `bestmove` is legal.

    python3 tests/cchess_client.py [path/to/chuhan]

The engine is loaded with `EngineManager().load_ucci(...)` / `load_uci(...)` exactly as a GUI
does (CRLF lines, `setoption name X value Y` even in UCCI, 2-field FENs, no `isready`, an idle
`stop` after each search). Each configuration searches a list of fixed positions (openings,
middle games, Black to move, a mate in one, positions without a legal move) and then plays a
short game against itself. Legality is judged by cchess's own board, independently of Chuhan's
move generator. Exits non-zero on any illegal or missing move.
"""

import os
import sys
import threading
import time
from pathlib import Path

try:
    import cchess
    from cchess import ChessBoard, EngineManager, FenCache
    from cchess.common import iccs2pos
except ImportError as e:  # the CI script installs cchess; a missing one is a failure here
    print(f"cchess_client: cannot import cchess ({e}); pip install cchess", file=sys.stderr)
    sys.exit(2)

try:
    from importlib.metadata import version

    CCHESS_VERSION = version("cchess")
except Exception:  # version metadata is a nicety only
    CCHESS_VERSION = "?"

SEARCH_TIMEOUT = float(os.environ.get("CCHESS_TIMEOUT", "30"))
SELF_PLAY_PLIES = 16

POSITIONS = [
    # Start position, and with the aliases E/H and side `r` some GUIs send.
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    "rhbakabhr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
    # Openings, Black to move.
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
    "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b",
    # Middle games.
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
    "2bakab2/9/2n1c1n2/p3p3p/2p3p2/6P2/P1P1P3P/2N1C1N2/4A4/2BAK1B2 w",
    "3akab2/9/4b4/p3p1p1p/2p6/6P2/P1P1P3P/4B4/4A4/2BAK4 b",
    # Endings.
    "3k5/4a4/4ba3/9/9/9/9/4B4/4A4/3AK1R2 w",
    "4k4/9/9/9/9/9/9/9/4p4/4K4 w",
    # Mate in one for Red (b0b9).
    "4k4/R8/9/9/9/9/9/9/9/1R1K5 w",
    # No legal move: checkmated, and stalemated (a loss in xiangqi).
    "5k3/9/9/9/9/9/9/9/r8/r3K4 w",
    "3k5/9/9/9/3r5/9/9/6n2/9/4K4 w",
]

CONFIGS = [
    ("ucci", {"hashsize": 16, "threads": 1}, {"depth": 5}),
    ("ucci", {"usemillisec": "true"}, {"time": 2000, "increment": 0, "opptime": 2000}),
    ("uci", {"Hash": 16, "Threads": 1}, {"depth": 5}),
    ("uci", {"Move Overhead": 10}, {"movetime": 150}),
]


def canonical(fen):
    """cchess's board knows neither the letters H/E nor side `r`: the same FEN in its spelling."""
    board, *rest = fen.split()
    board = board.translate(str.maketrans("HEhe", "NBnb"))
    rest = ["w" if f == "r" else f for f in rest]
    return " ".join([board, *rest])


def legal_moves(board):
    """Every legal move in ICCS, by cchess's rules."""
    moves = set()
    for (src, dst) in board.create_moves():
        if board.is_valid_move(src, dst) and not board.is_checked_move(src, dst):
            moves.add(cchess.pos2iccs(src, dst))
    return moves


def search(mgr, fen, params):
    """One search through cchess's engine object: returns the final action dict."""
    engine = mgr.engine
    engine.go_from(fen, params)
    deadline = time.time() + SEARCH_TIMEOUT
    while time.time() < deadline:
        action = engine.get_action()
        if action is None:
            time.sleep(0.01)
            continue
        if action["action"] in ("bestmove", "dead", "draw"):
            # A GUI on cchess stops the engine after each search; the idle stop is answered
            # (UCCI: nobestmove) and drained here.
            engine.stop_thinking()
            while engine.get_action() is not None:
                pass
            return action
    raise AssertionError(f"no bestmove within {SEARCH_TIMEOUT}s for {fen} {params}")


def run_engine_with_timeout(mgr, fen):
    """cchess's own `run_engine` loop (which waits forever on an illegal move)."""
    result = {}

    def target():
        result["action"] = mgr.run_engine(fen)

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(SEARCH_TIMEOUT)
    if t.is_alive():
        raise AssertionError(f"cchess run_engine never got a legal move for {fen}")
    return result["action"]


def check(dialect, fen, action, failures):
    fen = canonical(fen)
    board = ChessBoard(fen)
    legal = legal_moves(board)
    kind = action["action"]
    if not legal:
        if kind != "dead":
            failures.append(f"{dialect} {fen}: no legal move, but engine said {action['raw_msg']}")
        return None
    if kind != "bestmove":
        failures.append(f"{dialect} {fen}: expected a move, got {action.get('raw_msg')}")
        return None
    move = action["move"]
    if move not in legal:
        failures.append(f"{dialect} {fen}: illegal bestmove {move}")
        return None
    ponder = action.get("ponder")
    if isinstance(ponder, str) and ponder not in ("draw", "resign"):
        after = ChessBoard(fen)
        after.move_iccs(move)
        after.next_turn()
        if ponder not in legal_moves(after):
            failures.append(f"{dialect} {fen}: illegal ponder {ponder} after {move}")
    return move


def run_config(engine_path, dialect, options, params):
    failures = []
    searches = 0
    mgr = EngineManager(FenCache())
    load = mgr.load_ucci if dialect == "ucci" else mgr.load_uci
    if not load(engine_path, options, params):
        return 0, [f"{dialect}: the engine did not load (no {dialect}ok)"]
    try:
        for fen in POSITIONS:
            searches += 1
            try:
                check(dialect, fen, search(mgr, fen, params), failures)
            except AssertionError as e:
                failures.append(f"{dialect}: {e}")
        # A short game against itself, from the start position.
        board = ChessBoard(canonical(POSITIONS[0]))
        for _ in range(SELF_PLAY_PLIES):
            fen = board.to_fen()
            searches += 1
            try:
                move = check(dialect, fen, search(mgr, fen, params), failures)
            except AssertionError as e:
                failures.append(f"{dialect}: {e}")
                move = None
            if move is None:
                break
            board.move_iccs(move)
            board.next_turn()
        # cchess's own search loop, as its GUIs call it (in cchess's FEN spelling).
        for fen in POSITIONS[2:5]:
            searches += 1
            try:
                check(dialect, fen, run_engine_with_timeout(mgr, fen), failures)
            except AssertionError as e:
                failures.append(f"{dialect}: {e}")
    finally:
        mgr.quit()
        proc = mgr.engine.process
        try:
            proc.wait(timeout=5)
        except Exception:
            failures.append(f"{dialect}: the engine did not exit after quit")
            proc.kill()
    return searches, failures


def main():
    root = Path(__file__).resolve().parent.parent
    engine = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "target" / "release" / "chuhan"
    engine = engine.resolve()
    if not engine.is_file():
        print(f"cchess_client: no engine at {engine}", file=sys.stderr)
        return 2
    total, failures = 0, []
    for dialect, options, params in CONFIGS:
        started = time.time()
        n, f = run_config(str(engine), dialect, options, params)
        total += n
        failures += f
        print(f"cchess {CCHESS_VERSION} {dialect} {params}: {n} searches, "
              f"{len(f)} failures, {time.time() - started:.1f}s")
    for f in failures:
        print("FAIL:", f)
    print(f"cchess_client: {total} searches, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
