//! `chuhan train` from the command line: a small run on made-up records learns and writes
//! networks the engine loads; runs repeat exactly on any thread count; a resumed run ends where
//! an uninterrupted one does; bad input is refused with a message and a non-zero exit.

use chuhan::board::playout::random_playout;
use chuhan::board::position::Position;
use chuhan::board::rng::Rng;
use chuhan::board::types::PieceKind;
use chuhan::eval::nnue::float::FloatNetwork;
use chuhan::eval::nnue::{Accumulator, Network, QA, QB, SCALE};
use chuhan::tools::datagen::record::{encode, Wdl};
use chuhan::tools::train::checkpoint::Checkpoint;
use std::path::Path;

mod common;

use common::{run_chuhan as chuhan, scratch, text};

/// Material from the side to move's view, in centipawns.
fn material(pos: &Position) -> i32 {
    let value = |k: PieceKind| match k {
        PieceKind::Rook => 900,
        PieceKind::Horse | PieceKind::Cannon => 450,
        PieceKind::Advisor | PieceKind::Elephant => 200,
        PieceKind::Pawn => 100,
        PieceKind::King => 0,
    };
    pos.occupied()
        .filter_map(|sq| pos.piece_on(sq))
        .map(|p| {
            let v = value(p.kind());
            if p.color() == pos.side_to_move() {
                v
            } else {
                -v
            }
        })
        .sum()
}

/// Positions of random playouts: `n` of them.
fn playout_positions(seed: u64, n: usize) -> Vec<Position> {
    random_playout(&mut Rng::new(seed), n, 30)
}

/// A record file of `n` random-playout positions scored by material, the result following the
/// score: a network can learn it.
fn material_file(path: &Path, seed: u64, n: usize) {
    let mut bytes = Vec::new();
    for pos in playout_positions(seed, n) {
        let score = material(&pos);
        let result = match score {
            s if s > 150 => Wdl::Win,
            s if s < -150 => Wdl::Loss,
            _ => Wdl::Draw,
        };
        bytes.extend_from_slice(&encode(&pos, score as i16, result));
    }
    std::fs::write(path, bytes).unwrap();
}

/// The validation losses of a run's output, epoch 0 (before training) first.
fn val_losses(out: &str) -> Vec<f64> {
    out.lines()
        .filter_map(|l| l.split("val loss ").nth(1))
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect()
}

/// How far the integer network's score of `pos` may be from the float one's: each hidden unit
/// moves by at most (pieces + 1) half-steps of QA, each output weight by half a step of QB,
/// plus the final rounding.
fn quantisation_bound(f: &FloatNetwork, pos: &Position) -> f32 {
    let stm = pos.side_to_move();
    let dh = (pos.occupied().count() as f32 + 1.0) * 0.5 / QA as f32;
    let mut bound = 0.5 / (QA * QB) as f32;
    for (weights, view) in f.out_weights.iter().zip([stm, stm.flip()]) {
        for (h, w) in f.hidden(pos, view).iter().zip(weights) {
            bound += w.abs() * dh + 0.5 / QB as f32 * (h + dh);
        }
    }
    bound * SCALE as f32 + 1.0
}

#[test]
fn a_run_learns_and_writes_networks_the_engine_loads() {
    let dir = scratch("train-cli-learn");
    let data = dir.join("material.bin");
    material_file(&data, 1, 12_000);
    let nets = dir.join("nets");
    let (code, out, err) = chuhan(&[
        "train",
        "--out",
        text(&nets),
        "--epochs",
        "3",
        "--batch",
        "512",
        "--lr",
        "0.003",
        "--val-fraction",
        "0.1",
        "--threads",
        "2",
        text(&data),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("train: 12000 positions from 1 files"),
        "{out}"
    );
    assert!(out.contains("epoch 3/3: train loss"), "{out}");
    let losses = val_losses(&out);
    assert_eq!(losses.len(), 4, "{out}");
    assert!(losses[3] < 0.3 * losses[0], "{out}");
    for epoch in 1..=3 {
        assert!(nets.join(format!("epoch-{epoch}.nnue")).exists());
        assert!(nets.join(format!("epoch-{epoch}.ckpt")).exists());
    }
    let leftovers = std::fs::read_dir(&nets)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .to_string_lossy()
                .ends_with(".partial")
        })
        .count();
    assert_eq!(leftovers, 0);

    // The network file is the checkpoint's weights quantised, it loads, and it scores like the
    // float network within the quantisation error.
    let bytes = std::fs::read(nets.join("epoch-3.nnue")).unwrap();
    let net = Network::from_bytes(&bytes).unwrap();
    let ckpt = Checkpoint::read(&nets.join("epoch-3.ckpt")).unwrap();
    assert_eq!(ckpt.epochs, 3);
    assert!(ckpt.net.quantise().unwrap().to_bytes() == bytes);
    let float = &ckpt.net;
    let (mut total, mut n) = (0.0, 0);
    let (mut unbalanced, mut agrees) = (0, 0);
    for pos in playout_positions(99, 1000) {
        let int = net.evaluate(&Accumulator::refresh(&net, &pos), pos.side_to_move());
        let reference = float.evaluate(&pos);
        let diff = (int as f32 - reference).abs();
        assert!(diff <= quantisation_bound(float, &pos), "{}", pos.to_fen());
        total += diff;
        n += 1;
        // And it has learnt material, on positions it has not seen: the side a horse's worth
        // ahead or more is ahead (by chance: half of them).
        let m = material(&pos);
        if m.abs() >= 450 {
            unbalanced += 1;
            agrees += usize::from((int > 0) == (m > 0));
        }
    }
    // (The output weights' step, 1/64, over 1 024 of them makes the typical difference tens of
    // centipawns for this small, briefly trained network: 65 with these settings.)
    assert!(
        total / n as f32 <= 80.0,
        "mean difference {}",
        total / n as f32
    );
    assert!(
        unbalanced > 30 && agrees * 10 >= unbalanced * 7,
        "{agrees} of {unbalanced}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Train `epochs` epochs on `data` into `out`, with extra arguments; panics on failure.
fn train(data: &Path, out: &Path, epochs: u32, extra: &[&str]) -> String {
    let epochs = epochs.to_string();
    let mut args = vec![
        "train",
        "--out",
        text(out),
        "--epochs",
        &epochs,
        "--batch",
        "200",
        "--lr",
        "0.005",
        "--lr-drop-epoch",
        "1",
        "--lr-gamma",
        "0.5",
        "--seed",
        "7",
    ];
    args.extend_from_slice(extra);
    args.push(text(data));
    let (code, out, err) = chuhan(&args);
    assert_eq!(code, 0, "{out}{err}");
    out
}

#[test]
fn runs_repeat_exactly_and_a_resumed_run_ends_where_an_uninterrupted_one_does() {
    let dir = scratch("train-cli-repeat");
    let data = dir.join("material.bin");
    material_file(&data, 2, 900);
    let read = |d: &str, epoch: u32| {
        let base = dir.join(d);
        (
            std::fs::read(base.join(format!("epoch-{epoch}.nnue"))).unwrap(),
            std::fs::read(base.join(format!("epoch-{epoch}.ckpt"))).unwrap(),
        )
    };
    let whole = train(&data, &dir.join("a"), 3, &["--threads", "1"]);
    train(&data, &dir.join("b"), 3, &["--threads", "2"]);
    assert!(read("a", 3) == read("b", 3), "another thread count");
    // Interrupted after epoch 1, resumed into the same directory: epochs 2 and 3 as before,
    // and the same losses printed.
    let first = train(&data, &dir.join("c"), 1, &["--threads", "2"]);
    let ckpt = dir.join("c").join("epoch-1.ckpt");
    let rest = train(&data, &dir.join("c"), 3, &["--resume", text(&ckpt)]);
    assert!(
        read("a", 2) == read("c", 2) && read("a", 3) == read("c", 3),
        "resumed"
    );
    // The losses and rate of each epoch (not the speed, nor the "/epochs" of the run).
    let epoch_lines = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("epoch ") && l.contains("positions/s"))
            .map(|l| l.split_once(": ").unwrap().1)
            .map(|l| l.split(" positions/s").next().unwrap())
            .map(|l| l.rsplit_once(", ").unwrap().0.to_string())
            .collect()
    };
    let joined: Vec<String> = epoch_lines(&first)
        .into_iter()
        .chain(epoch_lines(&rest))
        .collect();
    let uninterrupted: Vec<String> = epoch_lines(&whole);
    assert_eq!(joined, uninterrupted);
    // Another seed trains another network.
    train(&data, &dir.join("d"), 1, &["--seed", "8"]);
    assert!(read("a", 1) != read("d", 1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_started_from_a_network_starts_where_that_network_is() {
    let dir = scratch("train-cli-init");
    let data = dir.join("material.bin");
    material_file(&data, 5, 3_000);
    let first = train(&data, &dir.join("a"), 2, &[]);
    let net = dir.join("a").join("epoch-2.nnue");
    let warm = train(&data, &dir.join("b"), 1, &["--init", text(&net)]);
    let cold = val_losses(&first);
    let warm = val_losses(&warm);
    // The warm start's epoch 0 is the first run's last network (within its quantisation),
    // far from a random start.
    assert!(
        (warm[0] - cold[2]).abs() <= 0.1 * cold[2] && warm[0] < 0.5 * cold[0],
        "cold {cold:?}, warm {warm:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let dir = scratch("train-cli-bad");
    let good = dir.join("good.bin");
    material_file(&good, 3, 300);
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let truncated = dir.join("truncated.bin");
    std::fs::write(&truncated, &std::fs::read(&good).unwrap()[..33]).unwrap();
    let bad_record = dir.join("bad-record.bin");
    let mut bytes = std::fs::read(&good).unwrap();
    bytes[32 * 5 + 30] = 3; // record 5's result byte
    std::fs::write(&bad_record, &bytes).unwrap();
    let one = dir.join("one.bin");
    std::fs::write(&one, &std::fs::read(&good).unwrap()[..32]).unwrap();
    let other = dir.join("other.bin");
    material_file(&other, 4, 300);
    let out = dir.join("nets");
    let o = text(&out);
    let fresh = dir.join("fresh");
    let f = text(&fresh);
    let first = train(&good, &out, 1, &[]);
    assert!(first.contains("epoch 1/1"));
    let ckpt = out.join("epoch-1.ckpt");
    let c = text(&ckpt);
    let nnue = out.join("epoch-1.nnue");
    let missing = dir.join("missing.bin");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["train", "--out", o], "at least one record file"),
        (vec!["train", text(&good)], "needs --out"),
        (
            vec!["train", "--out", o, "--frobnicate", "1", text(&good)],
            "unknown option '--frobnicate'",
        ),
        (
            vec!["train", "--out", o, "--wdl", "2", text(&good)],
            "bad --wdl '2' (expected 0 to 1)",
        ),
        (
            vec!["train", "--out", o, "--batch", "x", text(&good)],
            "bad --batch 'x' (expected at least 1)",
        ),
        (vec!["train", "--out", f, text(&missing)], "cannot open"),
        (vec!["train", "--out", f, text(&empty)], "holds no records"),
        (
            vec!["train", "--out", f, text(&truncated)],
            "not a whole number",
        ),
        (
            vec!["train", "--out", f, text(&bad_record)],
            "record 5 (byte 160): result byte 3",
        ),
        (
            vec!["train", "--out", o, text(&good)],
            "exists; not overwriting",
        ),
        (
            vec!["train", "--out", f, "--val-fraction", "0.999", text(&one)],
            "no positions left",
        ),
        (
            vec![
                "train",
                "--out",
                o,
                "--epochs",
                "2",
                "--resume",
                c,
                text(&other),
            ],
            "not the checkpoint's data",
        ),
        (
            vec![
                "train",
                "--out",
                o,
                "--epochs",
                "2",
                "--resume",
                c,
                "--lr",
                "0.1",
                text(&good),
            ],
            "differs from the checkpoint's",
        ),
        (
            vec![
                "train",
                "--out",
                o,
                "--resume",
                c,
                "--epochs",
                "1",
                text(&good),
            ],
            "1 epochs done",
        ),
        (
            vec![
                "train",
                "--out",
                o,
                "--epochs",
                "2",
                "--resume",
                text(&nnue),
                text(&good),
            ],
            "not a Chuhan training checkpoint",
        ),
        (
            vec!["train", "--out", f, "--init", text(&missing), text(&good)],
            "cannot read network file",
        ),
        (
            vec!["train", "--out", f, "--init", c, text(&good)],
            "is not a Chuhan network",
        ),
        (
            vec![
                "train",
                "--out",
                f,
                "--init",
                text(&nnue),
                "--resume",
                c,
                text(&good),
            ],
            "give one of them",
        ),
    ];
    for (args, want) in cases {
        let (code, stdout, err) = chuhan(&args);
        assert_ne!(code, 0, "{args:?}: {stdout}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
