//! Search behaviour: forced mates for both colours (checked against a brute-force solver),
//! stalemate (困毙) as a win, legal best moves, multi-threaded agreement, determinism,
//! MultiPV and root restrictions, searching with a network.

use chuhan::board::movegen::legal_moves;
use chuhan::board::position::Position;
use chuhan::board::types::{Move, MATE};
use chuhan::engine::{Engine, SearchEvent};
use chuhan::eval::nnue::{Network, HIDDEN};
use chuhan::search::time::Limits;
use chuhan::search::{SearchInfo, SearchResult};
use std::time::{Duration, Instant};

/// Mate (or stalemate) in N for the side to move: (N, FEN).
const MATES: &[(u32, &str)] = &[
    (
        1,
        "3a1a3/4k4/4b4/4p4/P1P3b2/4P1B2/9/5A3/2r5r/2B2K3 b - - 4 29",
    ),
    (1, "5a3/9/4k4/2n6/2p3b2/r8/9/9/3K5/9 b - - 27 63"),
    (
        1,
        "rnc1k4/4a4/9/p1p1p1p1p/9/9/4PC2c/9/4A4/RNBAK1BNR b - - 1 13",
    ),
    (1, "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"),
    (2, "1nba2b2/5k3/5r3/2p6/4p3p/9/9/8r/4K4/9 b - - 13 40"),
    (2, "4kN3/9/6P2/9/8N/2P1P4/6P2/B3R3B/4AK3/5A3 w - - 24 58"),
    (2, "9/4k4/5P3/9/9/9/9/8B/3K5/2BA3N1 w - - 58 77"),
    (2, "r1b2kb2/9/9/9/6p2/2B6/4P4/1cN6/9/3AKCr2 b - - 1 29"),
    (3, "2b1ka3/8r/3Pc4/9/9/4p4/9/9/3K5/9 b - - 10 54"),
    (3, "3k2b2/3r5/9/1np5p/9/p8/5p3/9/4A4/5K3 b - - 39 65"),
    (3, "3k5/9/9/5P3/9/9/1N7/5K2B/4A4/2BA4N w - - 56 68"),
    (3, "9/5k3/9/3P5/2P4N1/2B6/9/9/3K5/5A3 w - - 16 91"),
];

/// The same position with colours swapped (ranks mirrored, case swapped, other side to move).
fn color_flip(fen: &str) -> String {
    Position::from_fen(fen).unwrap().color_flipped().to_fen()
}

/// Whether the side to move wins by force within `n` of its moves (no legal reply = loss).
fn wins_in(pos: &mut Position, n: u32) -> bool {
    n > 0
        && legal_moves(pos).as_slice().iter().any(|&m| {
            pos.make_move(m);
            let ok = after_move_wins(pos, n);
            pos.unmake_move();
            ok
        })
}

fn after_move_wins(pos: &mut Position, n: u32) -> bool {
    let replies = legal_moves(pos);
    replies.is_empty()
        || (n > 1
            && replies.as_slice().iter().all(|&r| {
                pos.make_move(r);
                let w = wins_in(pos, n - 1);
                pos.unmake_move();
                w
            }))
}

fn search(fen: &str, limits: Limits, threads: usize) -> (Option<Move>, Option<i32>) {
    let mut e = Engine::new();
    e.set_hash_mb(16).unwrap();
    e.set_threads(threads);
    e.set_position(Some(fen), &[] as &[&str]).unwrap();
    let result = e.search_sync(limits);
    (result.best, result.score)
}

/// Start a search; its events arrive on the returned channel.
fn go(e: &mut Engine, limits: Limits) -> crossbeam_channel::Receiver<SearchEvent> {
    let (tx, rx) = crossbeam_channel::unbounded();
    e.go(
        limits,
        std::sync::Arc::new(move |ev| {
            let _ = tx.send(ev);
        }),
    );
    rx
}

/// Start an infinite search; its events arrive on the returned channel.
fn go_infinite(e: &mut Engine) -> crossbeam_channel::Receiver<SearchEvent> {
    go(
        e,
        Limits {
            infinite: true,
            ..Limits::default()
        },
    )
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn finds_forced_mates_for_both_colours() {
    for &(n, fen) in MATES {
        for fen in [fen.to_string(), color_flip(fen)] {
            let mut pos = Position::from_fen(&fen).unwrap();
            assert!(wins_in(&mut pos, n), "fixture {fen} is not a win in {n}");
            let (best, score) = search(&fen, depth(2 * n + 9), 1);
            let best = best.expect("a move");
            pos.make_move(best);
            assert!(
                after_move_wins(&mut pos, n),
                "{fen}: {best} does not win in {n}"
            );
            assert_eq!(score, Some(MATE - (2 * n as i32 - 1)), "{fen}: mate score");
        }
    }
}

#[test]
fn stalemating_the_opponent_wins() {
    // Only quiet moves that leave Black without any move (困毙) win here in 3; the engine must
    // see the stalemate at the end of the line as a win. (The pruning hides the shortest line
    // until depth 13 to 15, depending on the search's margins; 16 leaves room.)
    let fen = "3k5/9/9/5P3/9/9/1N7/5K2B/4A4/2BA4N w - - 56 68";
    let (best, score) = search(fen, depth(16), 1);
    let mut pos = Position::from_fen(fen).unwrap();
    pos.make_move(best.unwrap());
    assert!(after_move_wins(&mut pos, 3));
    assert_eq!(score, Some(MATE - 5));
    // Re1-e8 stalemates Black at once (Rd1 mates too); either scores as mate in 1.
    let (best, score) = search("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", depth(6), 1);
    let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
    pos.make_move(best.unwrap());
    assert!(legal_moves(&pos).is_empty());
    assert_eq!(score, Some(MATE - 1));
}

#[test]
fn having_no_move_loses() {
    let mut e = Engine::new();
    e.set_position(Some("4k4/5R3/9/9/9/9/9/9/9/3K5 b - - 0 1"), &[] as &[&str])
        .unwrap();
    assert_eq!(e.search_sync(depth(5)), SearchResult::default());
}

#[test]
fn best_moves_are_always_legal() {
    let text = include_str!("data/perft.epd");
    let mut e = Engine::new();
    e.set_hash_mb(8).unwrap();
    for line in text.lines().step_by(7) {
        let fen = line.split(';').next().unwrap().trim();
        e.set_position(Some(fen), &[] as &[&str]).unwrap();
        let legal = legal_moves(e.position());
        let result = e.search_sync(Limits {
            nodes: Some(3_000),
            ..Limits::default()
        });
        match result.best {
            None => assert!(legal.is_empty(), "{fen}: no move returned"),
            Some(m) => {
                assert!(legal.contains(m), "{fen}: illegal {m}");
                assert_eq!(
                    result.pv.first(),
                    Some(&m),
                    "{fen}: the line starts elsewhere"
                );
                if let Some(p) = result.ponder {
                    let mut pos = e.position().clone();
                    pos.make_move(m);
                    assert!(legal_moves(&pos).contains(p), "{fen}: illegal ponder {p}");
                }
            }
        }
    }
}

#[test]
fn four_threads_agree_on_forced_mates() {
    for &(n, fen) in MATES.iter().filter(|(n, _)| *n >= 2) {
        let (best, score) = search(fen, depth(2 * n + 9), 4);
        let mut pos = Position::from_fen(fen).unwrap();
        pos.make_move(best.unwrap());
        assert!(after_move_wins(&mut pos, n), "{fen}");
        assert_eq!(score, Some(MATE - (2 * n as i32 - 1)), "{fen}");
    }
}

#[test]
fn one_thread_is_deterministic() {
    let fen = "2bakab1r/9/6n2/p3p1C1p/2P2nPc1/9/P3P3P/R1N1B4/1r2Cc3/2BAKAR2 b - - 3 14";
    let run = || {
        let mut e = Engine::new();
        e.set_hash_mb(16).unwrap();
        e.set_position(Some(fen), &[] as &[&str]).unwrap();
        e.search_sync(depth(9))
    };
    assert_eq!(run(), run());
}

#[test]
fn node_limit_is_respected() {
    let mut e = Engine::new();
    let nodes = e
        .search_sync(Limits {
            nodes: Some(20_000),
            ..Limits::default()
        })
        .nodes;
    assert!((1..=20_000 + 2_048).contains(&nodes), "{nodes}");
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut e = Engine::new();
    e.options.search.multipv = 3;
    let infos: Vec<SearchInfo> = go(&mut e, depth(6))
        .iter()
        .map_while(|ev| match ev {
            SearchEvent::Info(i) => Some(i),
            SearchEvent::Book(_) | SearchEvent::BestMove(_) => None,
        })
        .collect();
    e.wait();
    let last_depth = infos.last().unwrap().depth;
    let lines: Vec<_> = infos.iter().filter(|i| i.depth == last_depth).collect();
    assert_eq!(lines.len(), 3);
    let firsts: std::collections::HashSet<Move> = lines.iter().map(|i| i.pv[0]).collect();
    assert_eq!(firsts.len(), 3);
    assert!(lines[0].score >= lines[1].score && lines[1].score >= lines[2].score);
    assert_eq!(
        lines.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
}

#[test]
fn root_restrictions_are_obeyed() {
    let mut e = Engine::new();
    let only = Position::startpos().parse_move("a0a1").unwrap();
    let result = e.search_sync(Limits {
        depth: Some(4),
        search_moves: vec![only],
        ..Limits::default()
    });
    assert_eq!(result.best, Some(only));
    // Ban every move but one.
    let legal = legal_moves(e.position());
    let keep = legal.as_slice()[5];
    let banned: Vec<String> = legal
        .as_slice()
        .iter()
        .filter(|&&m| m != keep)
        .map(|m| m.to_string())
        .collect();
    e.ban_moves(&banned).unwrap();
    assert_eq!(e.search_sync(depth(4)).best, Some(keep));
    // Ban them all: no move.
    let all: Vec<String> = legal.as_slice().iter().map(|m| m.to_string()).collect();
    e.ban_moves(&all).unwrap();
    assert_eq!(e.search_sync(depth(4)), SearchResult::default());
}

#[test]
fn movetime_and_stop_end_the_search() {
    // Generous bounds: this checks that the deadline is honoured at all, not its precision.
    let mut e = Engine::new();
    let t = Instant::now();
    let result = e.search_sync(Limits {
        movetime: Some(Duration::from_millis(200)),
        ..Limits::default()
    });
    assert!(result.best.is_some());
    assert!(t.elapsed() < Duration::from_secs(5));

    let rx = go_infinite(&mut e);
    std::thread::sleep(Duration::from_millis(100));
    assert!(e.is_searching());
    e.stop();
    let got_best = rx.iter().any(|ev| {
        matches!(
            ev,
            SearchEvent::BestMove(SearchResult { best: Some(_), .. })
        )
    });
    assert!(got_best);
    e.wait();
}

#[test]
fn a_strength_limit_sees_less_and_varies_its_moves() {
    let mut e = Engine::new();
    e.options.strength.skill_level = 0;
    let budget = e.options.strength.node_budget().unwrap();
    let mut moves = std::collections::HashSet::new();
    for _ in 0..12 {
        let result = e.search_sync(depth(30));
        let best = result.best.unwrap();
        assert!(legal_moves(e.position()).contains(best));
        assert_eq!(
            result.pv.first(),
            Some(&best),
            "the line of the move chosen"
        );
        assert!(result.nodes <= budget + 2_048);
        moves.insert(best);
    }
    assert!(
        moves.len() >= 2,
        "a weak level should not always play the same move: {moves:?}"
    );
    // UCI_Elo only counts with UCI_LimitStrength.
    let mut full = Engine::new();
    full.options.strength.elo = chuhan::search::strength::MIN_ELO;
    assert!(!full.options.strength.is_limited());
    full.options.strength.limit = true;
    assert_eq!(
        full.options.strength.knob(),
        Some(chuhan::search::strength::LADDER[0].knob)
    );
}

#[test]
fn a_search_stopped_at_once_still_answers_with_a_searched_move() {
    let mut e = Engine::new();
    let rx = go_infinite(&mut e);
    e.stop();
    let events: Vec<_> = rx
        .iter()
        .take_while(|ev| !matches!(ev, SearchEvent::BestMove(_)))
        .collect();
    e.wait();
    // The first iteration always completes, so its line is reported and played.
    assert!(events
        .iter()
        .any(|ev| matches!(ev, SearchEvent::Info(i) if i.depth >= 1)));
}

/// An engine evaluating with `network` (None: the classical evaluation), at `fen`.
fn engine_with(network: Option<std::sync::Arc<Network>>, fen: &str, threads: usize) -> Engine {
    let mut e = Engine::new();
    e.set_hash_mb(16).unwrap();
    e.set_threads(threads);
    match network {
        Some(net) => e.set_network(Some(net)),
        None => e.set_use_network(false),
    }
    e.set_position(Some(fen), &[] as &[&str]).unwrap();
    e
}

#[test]
fn a_network_evaluates_when_given() {
    // A network that scores every position 123 for the side to move: output bias 5020 at
    // QA · QB = 16 320 and 400 cp per unit is 123.04, rounded toward zero.
    let flat = Network::from_parts(
        vec![[0; HIDDEN]; 1260].into_boxed_slice(),
        [0; HIDDEN],
        [[0; HIDDEN]; 2],
        5020,
    )
    .unwrap();
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    // At depth 1 every reply stands pat at 123 for the opponent: the root scores -123.
    let mut e = engine_with(Some(std::sync::Arc::new(flat)), start, 1);
    assert_eq!(e.search_sync(depth(1)).score, Some(-123));
    let mut classical = engine_with(None, start, 1);
    assert_ne!(classical.search_sync(depth(1)).score, Some(-123));
}

#[test]
fn searches_with_a_random_network_are_legal_and_deterministic() {
    let net = std::sync::Arc::new(Network::random(7));
    let fen = "2bakab1r/9/6n2/p3p1C1p/2P2nPc1/9/P3P3P/R1N1B4/1r2Cc3/2BAKAR2 b - - 3 14";
    let run = |threads: usize| engine_with(Some(net.clone()), fen, threads).search_sync(depth(7));
    let (a, b) = (run(1), run(1));
    assert_eq!(a, b, "one thread repeats exactly");
    let pos = Position::from_fen(fen).unwrap();
    assert!(legal_moves(&pos).contains(a.best.unwrap()));
    assert!(a.nodes > 1000);
    // The network changes the search: another tree than the classical evaluation's.
    let classical = engine_with(None, fen, 1).search_sync(depth(7));
    assert_ne!(a.nodes, classical.nodes);
    // Two threads, each with its own accumulators, answer legally too.
    let two = run(2);
    assert!(legal_moves(&pos).contains(two.best.unwrap()));
}

#[test]
fn another_evaluation_empties_the_hash_and_the_same_one_keeps_it() {
    // The hash holds static evaluations and scores of the evaluation that searched.
    let start = Position::startpos();
    let mut e = Engine::new();
    e.set_hash_mb(1).unwrap();
    let searched = |e: &mut Engine| {
        e.search_sync(depth(4));
        e.probe_hash(&start).is_some()
    };
    let kept = |e: &Engine| e.probe_hash(&start).is_some();
    assert!(searched(&mut e), "the built-in network filled the hash");
    e.set_network(None);
    assert!(kept(&e), "the same network: the hash stays");
    e.set_use_network(false);
    assert!(!kept(&e), "classical: emptied");
    assert!(searched(&mut e));
    e.set_use_network(false);
    e.set_network(Some(std::sync::Arc::new(Network::random(1))));
    assert!(
        kept(&e),
        "a network loaded while the classical evaluation evaluates"
    );
    e.set_use_network(true);
    assert!(!kept(&e), "the loaded network: emptied");
    assert!(searched(&mut e));
    e.set_network(None);
    assert!(!kept(&e), "back to the built-in network: emptied");
}
