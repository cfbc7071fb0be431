//! Perft suites: the start position, the 600-position EPD file (depths 1-3) and the deeper
//! published counts. Deep counts run only in optimised builds (`cargo test --release`).

use chuhan::board::perft::{divide, perft};
use chuhan::board::position::Position;

fn count(fen: &str, depth: u32) -> u64 {
    let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    perft(&mut pos, depth)
}

#[test]
fn start_position_shallow() {
    let mut pos = Position::startpos();
    let expected = [1u64, 44, 1_920, 79_666, 3_290_240];
    for (depth, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, depth as u32), n, "depth {depth}");
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "deep perft runs in release")]
fn start_position_depth_5() {
    assert_eq!(perft(&mut Position::startpos(), 5), 133_312_995);
}

#[test]
fn divide_sums_to_total() {
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let mut pos = Position::from_fen(fen).unwrap();
    let rows = divide(&mut pos, 3);
    assert_eq!(rows.len() as u64, perft(&mut pos, 1));
    assert_eq!(rows.iter().map(|(_, n)| n).sum::<u64>(), perft(&mut pos, 3));
    // Divide leaves the position as it found it.
    assert_eq!(pos.to_fen(), Position::from_fen(fen).unwrap().to_fen());
}

#[test]
fn epd_suite() {
    let text = include_str!("data/perft.epd");
    let mut lines = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for field in parts {
            let (d, n) = field.trim().split_once(' ').unwrap();
            let depth: u32 = d.trim_start_matches('D').parse().unwrap();
            let nodes: u64 = n.trim().parse().unwrap();
            assert_eq!(perft(&mut pos, depth), nodes, "{fen} depth {depth}");
        }
        lines += 1;
    }
    assert_eq!(lines, 600);
}

#[test]
fn published_deeper_counts() {
    let cases = [
        (
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            4,
            1_339_047,
        ),
        ("4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", 4, 92_741),
    ];
    for (fen, depth, nodes) in cases {
        assert_eq!(count(fen, depth), nodes, "{fen}");
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "deep perft runs in release")]
fn published_deep_counts() {
    let cases = [
        (
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            5,
            53_112_976,
        ),
        (
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            4,
            4_485_547,
        ),
    ];
    for (fen, depth, nodes) in cases {
        assert_eq!(count(fen, depth), nodes, "{fen}");
    }
}
