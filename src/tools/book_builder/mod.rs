//! `chuhan book`: build opening books in Chuhan's format (`engine::book::binary`) and look
//! into any book the engine reads.
//!
//! - `chuhan book build --out FILE --games FILE…`: from game records (`games`).
//! - `chuhan book build --out FILE --analyse …`: from Chuhan's own analysis (`analysis`).
//! - `chuhan book learn BOOK PGN… [-o OUT]`: a Chuhan book's weights follow played games
//!   (`learn`).
//! - `chuhan book show FILE [moves…]`: what a book holds, and its moves after the moves given.
//! - `chuhan book walk FILE`: how deep and how varied the games are that the book plays.

pub mod analysis;
pub mod games;
pub mod learn;

use crate::board::position::Position;
use crate::board::rng::Rng;
use crate::board::types::Move;
use crate::engine::book::binary::{self, Record};
use crate::engine::book::{mirror_move, Book, BookPolicy};
use crate::engine::openings;
use crate::tools::args::{Arg, Args, Help};
use crate::tools::match_runner::pgn;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// `chuhan book …` usage.
pub const USAGE: &str = "usage:
  chuhan book build --out FILE --games FILE [--games FILE…] [--max-ply N] [--min-count N]
  chuhan book build --out FILE --analyse [--positions N] [--nodes N] [--multipv N] [--margin CP]
                    [--max-ply N] [--variety-plies N] [--threads N] [--seeds FILE]
                    [--journal FILE] [--batch N]
  chuhan book learn BOOK PGN… [-o OUT] [--scale N]
  chuhan book show FILE [moves…] [--depth N]
  chuhan book walk FILE [--games N] [--seed N] [--variety N]";

/// A position and a move in stored orientation: of the position and its mirror, the one with
/// the smaller key; in a symmetric position, the smaller of the move and its mirror. Books
/// store each line once this way, and `Book` looks both up.
pub fn canonical(pos: &Position, m: Move) -> (u64, Move) {
    let mirror = pos.mirrored();
    match mirror.key().cmp(&pos.key()) {
        std::cmp::Ordering::Less => (mirror.key(), mirror_move(m)),
        std::cmp::Ordering::Greater => (pos.key(), m),
        std::cmp::Ordering::Equal => (pos.key(), m.min(mirror_move(m))),
    }
}

/// Run `chuhan book …`.
pub fn run(args: &[String], out: &mut dyn Write) -> Result<()> {
    match args.first().map(String::as_str) {
        Some("build") => build(&args[1..], out),
        Some("learn") => learn_from_games(&args[1..], out),
        Some("show") => show(&args[1..], out),
        Some("walk") => walk(&args[1..], out),
        Some("-h" | "-help" | "--help") => Err(Help(USAGE).into()),
        _ => bail!("{USAGE}"),
    }
}

fn build(words: &[String], out: &mut dyn Write) -> Result<()> {
    let mut target: Option<PathBuf> = None;
    let mut games: Vec<String> = Vec::new();
    let mut analyse = false;
    let mut max_ply: Option<usize> = None;
    let mut min_count = 1u32;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut settings = analysis::Settings {
        positions: 10_000,
        nodes: 200_000,
        multipv: 4,
        margin: 40,
        max_ply: 40,
        variety_plies: 10,
        threads,
        batch: 64,
    };
    let mut seeds: Option<PathBuf> = None;
    let mut journal: Option<PathBuf> = None;
    let mut args = Args::new(words, USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Arg::Flag("out") => target = Some(PathBuf::from(args.value()?)),
            Arg::Flag("games") => games.push(args.value()?.to_string()),
            Arg::Flag("analyse" | "analyze") => analyse = true,
            Arg::Flag("max-ply") => max_ply = Some(args.number()?),
            Arg::Flag("min-count") => min_count = args.number()?,
            Arg::Flag("positions") => settings.positions = args.number()?,
            Arg::Flag("nodes") => settings.nodes = args.number()?,
            Arg::Flag("multipv") => settings.multipv = args.number_in(1..=128)?,
            Arg::Flag("margin") => settings.margin = args.number_in(1..=10_000)?,
            Arg::Flag("variety-plies") => settings.variety_plies = args.number_in(0..=1000)?,
            Arg::Flag("threads") => {
                settings.threads = args.number_in(1..=crate::engine::MAX_THREADS)?
            }
            Arg::Flag("batch") => settings.batch = args.number_in(1..)?,
            Arg::Flag("seeds") => seeds = Some(PathBuf::from(args.value()?)),
            Arg::Flag("journal") => journal = Some(PathBuf::from(args.value()?)),
            Arg::Flag(_) => return Err(args.unknown()),
            Arg::Word(w) => return Err(args.fail(format!("unexpected argument '{w}'"))),
        }
    }
    let target = target.context("--out FILE is needed")?;
    let records = match (analyse, games.is_empty()) {
        (true, true) => {
            if let Some(p) = max_ply {
                settings.max_ply = p;
            }
            let seed_lines = openings::load(seeds.as_deref()).map_err(anyhow::Error::msg)?;
            let journal = journal.unwrap_or_else(|| target.with_extension("journal"));
            eprintln!("journal: {}", journal.display());
            analysis::build(&settings, &seed_lines, &journal)?
        }
        (false, false) => games::from_files(&games, max_ply.unwrap_or(40), min_count)?,
        (true, false) => bail!("--analyse and --games cannot be mixed"),
        (false, true) => bail!("nothing to build from: --games FILE or --analyse\n{USAGE}"),
    };
    write_book(&target, &records)?;
    let positions = {
        let mut keys: Vec<u64> = records.iter().map(|r| r.key).collect();
        keys.dedup();
        keys.len()
    };
    writeln!(
        out,
        "{}: {} positions, {} moves, {} bytes",
        target.display(),
        positions,
        records.len(),
        binary::HEADER_SIZE + binary::RECORD_SIZE * records.len() as u64
    )?;
    Ok(())
}

/// Write the book beside its final name first, so that a build stopped half-way never leaves
/// a broken book.
fn write_book(target: &Path, records: &[Record]) -> Result<()> {
    let partial = target.with_extension("partial");
    let mut file = std::io::BufWriter::new(
        std::fs::File::create(&partial).with_context(|| format!("creating {partial:?}"))?,
    );
    binary::write(&mut file, records)?;
    file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&partial, target).with_context(|| format!("writing {target:?}"))?;
    Ok(())
}

/// `chuhan book learn BOOK PGN… [-o OUT] [--scale N]`: every file is read before anything
/// is written; the book is written back (to OUT, or in place) only when a game taught it
/// something.
fn learn_from_games(words: &[String], out: &mut dyn Write) -> Result<()> {
    let mut files: Vec<&str> = Vec::new();
    let mut target: Option<PathBuf> = None;
    let mut scale = learn::DEFAULT_SCALE;
    let mut args = Args::new(words, USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Arg::Flag("o" | "out") => target = Some(PathBuf::from(args.value()?)),
            Arg::Flag("scale") => scale = args.number_in(1..=1000)?,
            Arg::Flag(_) => return Err(args.unknown()),
            Arg::Word(file) => files.push(file),
        }
    }
    let Some((book_path, pgns)) = files.split_first() else {
        bail!("learn needs a book and PGN files\n{USAGE}");
    };
    if pgns.is_empty() {
        bail!("learn needs PGN files after the book\n{USAGE}");
    }
    let book = binary::BinaryBook::open(Path::new(book_path))
        .map_err(|e| anyhow::anyhow!("{book_path}: {e} (only a Chuhan book can learn)"))?;
    let mut records: Vec<Record> = book
        .records()
        .collect::<Result<_, _>>()
        .map_err(|e| anyhow::anyhow!("{book_path}: {e}"))?;
    drop(book);
    let mut games = Vec::new();
    let mut unreadable = 0;
    let mut first_unreadable: Option<String> = None;
    for path in pgns {
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("{path}: {}", crate::engine::files::file_problem(&e)))?;
        let text =
            String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{path}: not UTF-8 text"))?;
        let read = pgn::read_pgn_each(&text).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
        for (line, game) in read {
            let game = match game.and_then(|g| {
                let start = Position::from_fen(&g.fen).map_err(|e| format!("bad FEN: {e}"))?;
                Ok((start, g))
            }) {
                Ok(g) => g,
                Err(why) => {
                    unreadable += 1;
                    first_unreadable.get_or_insert(format!("{path}:{line}: {why}"));
                    continue;
                }
            };
            let (start, g) = game;
            let red_result = match g.result.as_str() {
                "1-0" => Some(1),
                "0-1" => Some(-1),
                "1/2-1/2" => Some(0),
                _ => None,
            };
            games.push(learn::PlayedGame {
                start,
                moves: g.moves,
                red_result,
            });
        }
    }
    let learned = learn::learn(&mut records, &games, scale);
    let read = games.len() + unreadable;
    writeln!(
        out,
        "{read} games read: {} learned from ({} book moves, {} records changed), \
         {} out of book, {} without a result, {unreadable} unreadable",
        learned.games, learned.plies, learned.records, learned.out_of_book, learned.no_result
    )?;
    if let Some(first) = first_unreadable {
        writeln!(out, "first unreadable game: {first}")?;
    }
    if read == 0 {
        bail!("no game in {}", pgns.join(", "));
    }
    if learned.games == 0 {
        bail!("no game went through the book; {book_path} is left as it was");
    }
    let target = target.unwrap_or_else(|| PathBuf::from(book_path));
    write_book(&target, &records)?;
    writeln!(out, "written: {}", target.display())?;
    Ok(())
}

/// `chuhan book show FILE [moves…] [--depth N]`: the book's moves after `moves`, and below
/// them to `depth` plies, as a tree.
fn show(words: &[String], out: &mut dyn Write) -> Result<()> {
    let mut depth = 1usize;
    let mut rest: Vec<&str> = Vec::new();
    let mut args = Args::new(words, USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Arg::Flag("depth") => depth = args.number_in(1..=MAX_SHOW_DEPTH)?,
            Arg::Flag(_) => return Err(args.unknown()),
            Arg::Word(w) => rest.push(w),
        }
    }
    let words = rest;
    let (path, moves) = words.split_first().context("show needs a book file")?;
    let opened = Book::open(Path::new(path)).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
    let book = opened.book;
    let mut pos = Position::startpos();
    for m in moves {
        let mv = pos
            .parse_move(m)
            .map_err(|e| anyhow::anyhow!("move '{m}': {e}"))?;
        pos.make_move(mv);
    }
    writeln!(out, "{path}: {}", book.describe())?;
    writeln!(out, "{}", pos.to_fen())?;
    if book.moves(&pos).is_empty() {
        writeln!(out, "not in the book")?;
        return Ok(());
    }
    writeln!(out, "{SHOW_HEADER}")?;
    show_tree(&book, &mut pos, depth, 0, out)
}

/// The deepest tree `book show` prints.
const MAX_SHOW_DEPTH: usize = 20;

/// The columns of `book show`: weight, the chance the book plays the move at the default
/// `BookVariety` (its share of the weights of the moves it would play; `-`: never played here),
/// the searched score for the side playing it, the learning field (games/net result), and the
/// move, indented by its depth below the position shown.
const SHOW_HEADER: &str = "weight  play%  score    learn  move";

fn show_tree(
    book: &Book,
    pos: &mut Position,
    depth: usize,
    level: usize,
    out: &mut dyn Write,
) -> Result<()> {
    let playable = book.candidates(pos);
    let total: u64 = playable.iter().map(|b| u64::from(b.weight)).sum();
    for b in book.moves(pos) {
        let play = if total > 0 && playable.iter().any(|p| p.mv == b.mv) {
            format!("{:.1}", 100.0 * b.weight as f64 / total as f64)
        } else {
            "-".to_string()
        };
        let score = b.score.map_or("-".to_string(), |s| s.to_string());
        let learn = match b.learned {
            (0, _) => "-".to_string(),
            (games, net) => format!("{games}/{net:+}"),
        };
        writeln!(
            out,
            "{:>6} {play:>6} {score:>6} {learn:>8}  {}{}",
            b.weight,
            "  ".repeat(level),
            b.mv
        )?;
        if level + 1 < depth {
            pos.make_move(b.mv);
            show_tree(book, pos, depth, level + 1, out)?;
            pos.unmake_move();
        }
    }
    Ok(())
}

/// What `book walk` found: how many plies each game stayed in the book, and the positions
/// of the games still in it at plies 10 and 20.
#[derive(Debug, Default)]
pub struct Walk {
    /// Plies each game stayed in the book, in the order played.
    pub plies: Vec<usize>,
    /// The position at ply 10 of each game still in the book there.
    pub at_10: Vec<u64>,
    /// The position at ply 20 of each game still in the book there.
    pub at_20: Vec<u64>,
    /// Games that ended where the book holds moves but would play none of them (the best
    /// scores too badly, or every move repeats); the rest left the book.
    pub refused: usize,
}

/// The longest game `walk` plays (the choice rules forbid repeating a position, so a book
/// cannot play forever; this only bounds a pathological one).
const MAX_WALK_PLIES: usize = 1000;

/// Play `games` games from the start with the book choosing every move for both sides, as an
/// engine with the book on does (`Book::choose` under `policy`, drawn from `rng`), each until
/// the book has no move it would play.
pub fn walk_book(book: &Book, games: usize, policy: BookPolicy, rng: &mut Rng) -> Walk {
    let mut walk = Walk::default();
    for _ in 0..games {
        let mut pos = Position::startpos();
        let mut ply = 0;
        while ply < MAX_WALK_PLIES {
            let Some(b) = book.choose(&pos, policy, rng) else {
                if !book.moves(&pos).is_empty() {
                    walk.refused += 1;
                }
                break;
            };
            pos.make_move(b.mv);
            ply += 1;
            match ply {
                10 => walk.at_10.push(pos.key()),
                20 => walk.at_20.push(pos.key()),
                _ => {}
            }
        }
        walk.plies.push(ply);
    }
    walk
}

/// `chuhan book walk FILE [--games N] [--seed N] [--variety N]`: the book plays both sides
/// from the start until it has no move, `games` times; how long the games stayed in the book
/// and how many distinct positions they reached. With the same seed, the same walk.
fn walk(words: &[String], out: &mut dyn Write) -> Result<()> {
    let mut games = 1000usize;
    let mut seed = 1u64;
    let mut policy = BookPolicy::DEFAULT;
    let mut path: Option<&str> = None;
    let mut args = Args::new(words, USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Arg::Flag("games") => games = args.number_in(1..=10_000_000)?,
            Arg::Flag("seed") => seed = args.number()?,
            Arg::Flag("variety") => {
                policy.variety = args.number_in(0..=BookPolicy::MAX_VARIETY)?;
            }
            Arg::Flag(_) => return Err(args.unknown()),
            Arg::Word(w) if path.is_none() => path = Some(w),
            Arg::Word(w) => return Err(args.fail(format!("unexpected argument '{w}'"))),
        }
    }
    let path = path.context("walk needs a book file")?;
    let book = Book::open(Path::new(path))
        .map_err(|e| anyhow::anyhow!("{path}: {e}"))?
        .book;
    let w = walk_book(&book, games, policy, &mut Rng::new(seed));
    let mut plies = w.plies.clone();
    plies.sort_unstable();
    let mean = plies.iter().sum::<usize>() as f64 / plies.len() as f64;
    let distinct = |keys: &[u64]| keys.iter().collect::<std::collections::BTreeSet<_>>().len();
    writeln!(
        out,
        "{path}: {games} games, the book playing both sides (BookVariety {}, seed {seed})",
        policy.variety
    )?;
    writeln!(
        out,
        "plies in book: mean {mean:.1}, median {}, longest {}",
        plies[plies.len() / 2],
        plies[plies.len() - 1]
    )?;
    writeln!(
        out,
        "in book at ply 10: {} games, {} distinct positions; at ply 20: {} games, {} distinct",
        w.at_10.len(),
        distinct(&w.at_10),
        w.at_20.len(),
        distinct(&w.at_20)
    )?;
    writeln!(
        out,
        "ended: {} out of the book, {} where the book would play none of its moves",
        games - w.refused,
        w.refused
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_follows_the_book_to_its_end_and_counts_the_lines() {
        // Two lines sharing their first move: every game is in the book for 12 or 4 plies.
        let book = Book::from_lines(
            "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 b7b3 c3c4 g6g5 g3g4 g5g4\nh2e2 b9c7 b0c2 a9b9\n",
        )
        .unwrap();
        let w = walk_book(&book, 200, BookPolicy::DEFAULT, &mut Rng::new(5));
        assert_eq!(w.plies.len(), 200);
        assert!(w.plies.iter().all(|&p| p == 12 || p == 4), "{:?}", w.plies);
        let long = w.plies.iter().filter(|&&p| p == 12).count();
        assert!((60..=140).contains(&long), "{long} of 200 on the long line");
        assert_eq!(w.at_10.len(), long);
        // The long line and its mirror (h2e2 stands for b2e2 in the symmetric start).
        let distinct: std::collections::BTreeSet<_> = w.at_10.iter().collect();
        assert_eq!(distinct.len(), 2);
        assert!(w.at_20.is_empty());
        assert_eq!(w.refused, 0);
        // The same seed, the same walk.
        let again = walk_book(&book, 200, BookPolicy::DEFAULT, &mut Rng::new(5));
        assert_eq!(w.plies, again.plies);
    }

    #[test]
    fn walk_reports_depth_and_variety_and_refuses_bad_arguments() {
        let path = std::env::temp_dir().join(format!("chuhan-walk-{}.txt", std::process::id()));
        std::fs::write(&path, "h2e2 h9g7 h0g2\n").unwrap();
        let file = path.to_string_lossy().to_string();
        let mut out = Vec::new();
        run(
            &["walk".into(), file.clone(), "--games".into(), "5".into()],
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("plies in book: mean 3.0, median 3, longest 3"),
            "{text}"
        );
        assert!(text.contains("ended: 5 out of the book, 0 where"), "{text}");
        for bad in [
            vec!["walk"],
            vec!["walk", &file, "--games", "0"],
            vec!["walk", &file, "x"],
        ] {
            let words: Vec<String> = bad.iter().map(|w| w.to_string()).collect();
            assert!(run(&words, &mut Vec::new()).is_err(), "{bad:?}");
        }
        std::fs::remove_file(path).unwrap();
    }
}
