//! A book from Chuhan's own analysis, needing no game collection.
//!
//! The opening tree grows best-first from the start position. Each position taken is searched
//! (fixed nodes, `multipv` lines, one thread, a cleared hash: the same answer on any machine
//! and with any number of threads); its moves within `margin` of the best are kept, and so
//! are the moves of the seed lines (the main openings, so that the book knows what to answer
//! when an opponent plays them, even where our search prefers another move).
//!
//! Weights: a move's weight halves for every `margin / 2` its searched score lies below the
//! position's best in the first `variety_plies` plies, where the choice of opening is made,
//! and eight times as fast beyond, where the book follows main lines (at the default margin
//! 40, a move 10 centipawns below the best is played one time in seventeen there, one 15 below
//! is known but never played). The weight follows the position's own search, which does not
//! swing as the tree below it grows; the record's score is that search's score too.
//!
//! Soundness: scores are backed up by minimax (a kept move leading to a searched position
//! scores minus that position's value), and a move that backs up more than `margin` below the
//! position's backed-up best is taken out of the book; a seed move up to three margins below
//! stays with its weight for the larger gap, and beyond that with weight 0 (the book knows it
//! and its answer, never plays it).
//!
//! Order of growth: before every batch, the chance of reaching each position when the book
//! plays both sides is worked out from the start (along its likeliest path: the parent's
//! chance times the chance the book plays the move, its share of the weights that
//! `Book::candidates` allows, a seed move at least a quarter), and the most likely positions
//! not yet searched are searched next. So the budget goes down the lines the book plays, as
//! deep as their chance carries them, not level by level.
//!
//! Every search result is appended to a journal as it comes; a build started again with the
//! same journal takes its results from there and goes on where it stopped (the tree grows the
//! same way, since it depends only on the results). Positions are stored in the orientation
//! of the smaller key of a position and its mirror, so a mirrored opening is searched once.

use crate::board::position::Position;
use crate::board::types::{Move, Value, MATE_BOUND};
use crate::engine::book::binary::Record;
use crate::engine::book::{mirror_move, RARE_SIDELINE, WEAK_SCORE};
use crate::engine::openings::Opening;
use crate::engine::Engine;
use crate::search::time::Limits;
use crate::tools::book_builder::canonical;
use anyhow::{bail, Context, Result};
use parking_lot::Mutex;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap};
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// What the builder searches and keeps.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Positions to search.
    pub positions: usize,
    /// Nodes per search.
    pub nodes: u64,
    /// Lines per search.
    pub multipv: usize,
    /// Moves within this many centipawns of the best are kept.
    pub margin: Value,
    /// Positions deeper than this (plies from the start) are not searched.
    pub max_ply: usize,
    /// Plies from the start with the full variety; beyond, weights fall eight times as fast.
    pub variety_plies: usize,
    /// Searches running at once.
    pub threads: usize,
    /// Positions searched between two progress lines and journal flushes.
    pub batch: usize,
}

/// A position's searched moves with their scores, best first.
type Lines = Vec<(Move, Value)>;

/// A searched position.
#[derive(Clone, Debug)]
struct Searched {
    /// The moves from the start that reach it (in stored orientation).
    path: Vec<Move>,
    /// The searched moves with their scores, best first.
    lines: Vec<(Move, Value)>,
}

/// A position waiting to be searched, most likely first.
#[derive(Clone, Debug)]
struct Waiting {
    chance: f64,
    key: u64,
    path: Vec<Move>,
}

impl PartialEq for Waiting {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}
impl Eq for Waiting {}
impl PartialOrd for Waiting {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Waiting {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.chance
            .total_cmp(&other.chance)
            .then(other.key.cmp(&self.key))
    }
}

/// The path to a position, turned into the stored orientation of that position.
fn stored_path(path: &[Move]) -> (u64, Vec<Move>) {
    let mut pos = Position::startpos();
    for &m in path {
        pos.make_move(m);
    }
    let mirror = pos.mirrored();
    if mirror.key() < pos.key() {
        (mirror.key(), path.iter().map(|&m| mirror_move(m)).collect())
    } else {
        (pos.key(), path.to_vec())
    }
}

/// The moves of the seed lines, by stored position key.
fn seed_moves(seeds: &[Opening]) -> BTreeMap<u64, BTreeSet<Move>> {
    let mut out: BTreeMap<u64, BTreeSet<Move>> = BTreeMap::new();
    for line in seeds.iter().filter(|o| o.from_start()) {
        let mut pos = Position::startpos();
        for &m in &line.moves {
            let (key, mv) = canonical(&pos, m);
            out.entry(key).or_default().insert(mv);
            pos.make_move(m);
        }
    }
    out
}

/// The journal: one search result a line, `path moves | move:score …`, after a header line
/// naming the search settings (results of other settings are not mixed in).
struct Journal {
    known: HashMap<u64, Searched>,
    file: std::fs::File,
}

impl Journal {
    fn header(s: &Settings) -> String {
        format!(
            "# chuhan book journal: nodes {} multipv {}",
            s.nodes, s.multipv
        )
    }

    fn open(path: &Path, s: &Settings) -> Result<Journal> {
        let mut known = HashMap::new();
        let header = Self::header(s);
        if path.exists() {
            let file = std::fs::File::open(path).with_context(|| format!("reading {path:?}"))?;
            let mut lines = std::io::BufReader::new(file).lines();
            match lines.next().transpose()? {
                Some(h) if h == header => {}
                Some(h) => bail!("{path:?} was made with other settings ('{h}', not '{header}')"),
                None => {}
            }
            for (n, line) in lines.enumerate() {
                let line = line?;
                // A line cut short by a killed build is dropped; its position is searched again.
                let searched = match Self::parse_line(&line) {
                    Ok(s) => s,
                    Err(e) => {
                        eprintln!("journal line {} ignored: {e}", n + 2);
                        continue;
                    }
                };
                let (key, _) = stored_path(&searched.path);
                known.insert(key, searched);
            }
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {path:?}"))?;
        if file.metadata()?.len() == 0 {
            writeln!(file, "{header}")?;
        }
        Ok(Journal { known, file })
    }

    fn parse_line(line: &str) -> Result<Searched> {
        let body = line.strip_suffix(';').context("cut short")?;
        let (path_text, lines_text) = body.split_once('|').context("no '|'")?;
        let mut pos = Position::startpos();
        let mut path = Vec::new();
        for t in path_text.split_whitespace() {
            let m = pos.parse_move(t).map_err(|e| anyhow::anyhow!("{e}"))?;
            pos.make_move(m);
            path.push(m);
        }
        let mut lines = Vec::new();
        for t in lines_text.split_whitespace() {
            let (m, s) = t.split_once(':').context("no ':'")?;
            let m = pos.parse_move(m).map_err(|e| anyhow::anyhow!("{e}"))?;
            lines.push((m, s.parse()?));
        }
        Ok(Searched { path, lines })
    }

    fn append(&mut self, s: &Searched) -> Result<()> {
        let path: Vec<String> = s.path.iter().map(Move::to_string).collect();
        let lines: Vec<String> = s.lines.iter().map(|(m, v)| format!("{m}:{v}")).collect();
        writeln!(self.file, "{} | {} ;", path.join(" "), lines.join(" "))?;
        Ok(())
    }
}

/// Search one position: its moves with scores, best first, one of each mirror pair in a
/// symmetric position. A seed move the lines leave out is searched alone for its score.
fn search(engine: &mut Engine, path: &[Move], seeds: &[Move], s: &Settings) -> Result<Lines> {
    let moves: Vec<String> = path.iter().map(Move::to_string).collect();
    // Every search starts from a cleared hash, so its result depends on the position alone.
    let reset = |engine: &mut Engine| {
        engine.new_game();
        engine
            .set_position(None, &moves)
            .map_err(|e| anyhow::anyhow!("{e}"))
    };
    reset(engine)?;
    let pos = engine.position().clone();
    let (result, lines) = engine.analyse(Limits {
        nodes: Some(s.nodes),
        ..Limits::default()
    });
    // The position is in stored orientation; a symmetric one keeps one of each pair.
    let symmetric = pos.mirrored().key() == pos.key();
    let stored = |m: Move| if symmetric { m.min(mirror_move(m)) } else { m };
    let mut out: Lines = Vec::new();
    let add = |out: &mut Lines, m: Move, v: Value| {
        if !out.iter().any(|&(o, _)| o == stored(m)) {
            out.push((stored(m), v));
        }
    };
    for info in &lines {
        if let Some(&m) = info.pv.first() {
            add(&mut out, m, info.score);
        }
    }
    if let (Some(m), Some(v)) = (result.best, result.score) {
        add(&mut out, m, v);
    }
    for &m in seeds {
        if out.iter().any(|&(o, _)| o == m) {
            continue;
        }
        reset(engine)?;
        let alone = engine.search_sync(Limits {
            nodes: Some(s.nodes),
            search_moves: vec![m],
            ..Limits::default()
        });
        if let Some(v) = alone.score {
            add(&mut out, m, v);
        }
    }
    out.sort_by_key(|&(m, v)| (std::cmp::Reverse(v), m));
    Ok(out)
}

/// The weight of a move `gap` centipawns below the best at `ply`: halves every `margin / 2`
/// up to `variety_plies`, every `margin / 16` beyond.
fn weight(gap: Value, margin: Value, ply: usize, variety_plies: usize) -> u16 {
    let halving = f64::from(margin.max(1)) / if ply < variety_plies { 2.0 } else { 16.0 };
    let halvings = f64::from(gap.max(0)) / halving;
    (1000.0 * 0.5f64.powf(halvings)).round().clamp(1.0, 1000.0) as u16
}

/// A searched position in the tree: its search, and the positions its kept moves lead to.
struct Node {
    searched: Searched,
    /// The kept moves (within `margin` of the searched best, and the seed moves), each with
    /// the key and the path of the position it leads to, in their stored orientation.
    children: Vec<(Move, u64, Vec<Move>)>,
}

/// A move of the book at a position: its backed-up score and its weight.
struct BookMove {
    mv: Move,
    score: Value,
    /// The book's weight; `None`: kept for backing up only, not a book move.
    weight: Option<u16>,
}

/// The tree being built.
struct Tree {
    nodes: BTreeMap<u64, Node>,
    seeds: BTreeMap<u64, BTreeSet<Move>>,
    settings: Settings,
}

impl Tree {
    fn is_seed(&self, key: u64, m: Move) -> bool {
        self.seeds.get(&key).is_some_and(|set| set.contains(&m))
    }

    /// Add a searched position, with the positions its kept moves lead to.
    fn insert(&mut self, key: u64, searched: Searched) {
        let best = searched.lines.first().map_or(0, |&(_, v)| v);
        let mut kept: Vec<Move> = searched
            .lines
            .iter()
            .filter(|&&(_, v)| v >= best - self.settings.margin)
            .map(|&(m, _)| m)
            .collect();
        for &m in self.seeds.get(&key).into_iter().flatten() {
            if !kept.contains(&m) {
                kept.push(m);
            }
        }
        let children = kept
            .into_iter()
            .map(|m| {
                let mut path = searched.path.clone();
                path.push(m);
                let (child, path) = stored_path(&path);
                (m, child, path)
            })
            .collect();
        self.nodes.insert(key, Node { searched, children });
    }

    /// Backed-up value of a searched position for its side to move.
    fn back_up(&self, key: u64, memo: &mut HashMap<u64, Option<Value>>) -> Option<Value> {
        if let Some(v) = memo.get(&key) {
            // `None`: the position is on the current line (a cycle): use the searched scores.
            return *v;
        }
        let node = self.nodes.get(&key)?;
        memo.insert(key, None);
        let best = self.move_scores(node, memo).iter().map(|&(_, v)| v).max();
        memo.insert(key, best);
        best
    }

    /// The kept moves of a searched position with their backed-up scores (minus the value of
    /// the position a move leads to where that was searched, else the move's searched score).
    fn move_scores(
        &self,
        node: &Node,
        memo: &mut HashMap<u64, Option<Value>>,
    ) -> Vec<(Move, Value)> {
        let mut out = Vec::new();
        for &(m, child, _) in &node.children {
            let backed = self.back_up(child, memo).map(|v| -v);
            let searched = node
                .searched
                .lines
                .iter()
                .find(|(l, _)| *l == m)
                .map(|&(_, v)| v);
            if let Some(v) = backed.or(searched) {
                out.push((m, v));
            }
        }
        out
    }

    /// The moves of a searched position by their backed-up scores: within `margin` of the
    /// best a book move, weighted by its gap; a seed move up to three margins below too, and
    /// with weight 0 beyond that; the rest only backed up.
    fn book_moves(
        &self,
        key: u64,
        node: &Node,
        memo: &mut HashMap<u64, Option<Value>>,
    ) -> Vec<BookMove> {
        let scores = self.move_scores(node, memo);
        let best = scores.iter().map(|&(_, v)| v).max().unwrap_or(0);
        let lines = &node.searched.lines;
        let searched_best = lines.first().map_or(0, |&(_, v)| v);
        let margin = self.settings.margin;
        let ply = node.searched.path.len();
        scores
            .into_iter()
            .map(|(mv, score)| {
                // The weight follows the position's own search, which does not swing as the
                // tree below grows; the backed-up score only takes out moves it shows bad.
                let backed_gap = best - score;
                let searched = lines.iter().find(|(l, _)| *l == mv).map(|&(_, v)| v);
                let searched_gap = searched.map_or(backed_gap, |v| searched_best - v);
                let seed = self.is_seed(key, mv);
                let s = &self.settings;
                let weight = if backed_gap <= margin {
                    Some(weight(searched_gap, margin, ply, s.variety_plies))
                } else if seed && backed_gap <= 3 * margin {
                    let gap = searched_gap.max(backed_gap);
                    Some(weight(gap, margin, ply, s.variety_plies))
                } else if seed {
                    Some(0)
                } else {
                    None
                };
                BookMove {
                    mv,
                    score: searched.unwrap_or(score),
                    weight,
                }
            })
            .collect()
    }

    /// The chance the book plays each kept move of a searched position, as `Book::choose`
    /// draws at the default variety: a move's share of the weights of the moves that
    /// `Book::candidates` allows (none where the best scores too badly, none of weight 0, no
    /// rare sideline). A seed move has at least a quarter: the book must know what comes
    /// after the main openings, whoever plays them.
    fn chances(
        &self,
        key: u64,
        node: &Node,
        memo: &mut HashMap<u64, Option<Value>>,
    ) -> Vec<(Move, f64)> {
        let moves = self.book_moves(key, node, memo);
        let top = moves.iter().filter_map(|b| b.weight).max().unwrap_or(0);
        let weak = moves
            .iter()
            .filter(|b| top > 0 && b.weight == Some(top))
            .min_by_key(|b| b.mv)
            .is_some_and(|b| b.score < WEAK_SCORE);
        let played = |b: &BookMove| {
            let w = b.weight.unwrap_or(0);
            if !weak && w > 0 && u32::from(w) * RARE_SIDELINE >= u32::from(top) {
                f64::from(w)
            } else {
                0.0
            }
        };
        let total: f64 = moves.iter().map(played).sum::<f64>().max(1.0);
        moves
            .iter()
            .map(|b| {
                let share = played(b) / total;
                let floor = if self.is_seed(key, b.mv) { 0.25 } else { 0.0 };
                (b.mv, share.max(floor))
            })
            .collect()
    }

    /// The next positions to search: the `n` most likely not yet searched, with the chance of
    /// reaching each when the book plays both sides (along its likeliest path: chances
    /// multiply down the tree and the likeliest positions come out first, as in Dijkstra's
    /// shortest paths). Recomputed from the backed-up scores before every batch, so the budget
    /// follows the lines the book will play, not the lines it looked like playing earlier.
    fn most_likely(&self, n: usize) -> Vec<Waiting> {
        let mut memo = HashMap::new();
        let mut heap = BinaryHeap::new();
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        heap.push(Waiting {
            chance: 1.0,
            key: Position::startpos().key(),
            path: Vec::new(),
        });
        while let Some(w) = heap.pop() {
            if out.len() >= n {
                break;
            }
            if !seen.insert(w.key) {
                continue;
            }
            let Some(node) = self.nodes.get(&w.key) else {
                out.push(w);
                continue;
            };
            if node.searched.path.len() >= self.settings.max_ply {
                continue;
            }
            let chances = self.chances(w.key, node, &mut memo);
            for (m, child, path) in &node.children {
                let share = chances
                    .iter()
                    .find(|(c, _)| c == m)
                    .map_or(0.0, |&(_, s)| s);
                if share > 0.0 && !seen.contains(child) {
                    heap.push(Waiting {
                        chance: w.chance * share,
                        key: *child,
                        path: path.clone(),
                    });
                }
            }
        }
        out
    }

    /// The book's records.
    fn records(&self) -> Vec<Record> {
        let mut memo = HashMap::new();
        let mut out = Vec::new();
        for (&key, node) in &self.nodes {
            for b in self.book_moves(key, node, &mut memo) {
                let Some(weight) = b.weight else { continue };
                // Mate scores are kept as the edge of the i16 range's useful part.
                let score = b.score.clamp(-MATE_BOUND, MATE_BOUND);
                out.push(Record {
                    key,
                    mv: b.mv,
                    weight,
                    score: score as i16,
                    learn: 0,
                });
            }
        }
        out
    }
}

/// Grow the tree and return the book's records. `journal`: where results are kept, and read
/// back from when the build is started again.
pub fn build(settings: &Settings, seeds: &[Opening], journal: &Path) -> Result<Vec<Record>> {
    if settings.positions == 0 || settings.nodes == 0 || settings.multipv == 0 {
        bail!("positions, nodes and multipv must be at least 1");
    }
    let mut journal = Journal::open(journal, settings)?;
    let mut tree = Tree {
        nodes: BTreeMap::new(),
        seeds: seed_moves(seeds),
        settings: settings.clone(),
    };
    let threads = settings.threads.max(1);
    let mut engines: Vec<Engine> = (0..threads)
        .map(|_| {
            let mut e = Engine::new();
            e.set_hash_mb(16).map_err(anyhow::Error::msg)?;
            e.options.search.multipv = settings.multipv;
            Ok(e)
        })
        .collect::<Result<_>>()?;
    let start = Instant::now();
    let mut reused = 0;
    while tree.nodes.len() < settings.positions {
        // The same batches whether their results come from the journal or from new searches,
        // so a resumed build grows the same tree.
        let wanted = settings.batch.min(settings.positions - tree.nodes.len());
        let batch = tree.most_likely(wanted);
        if batch.is_empty() {
            break;
        }
        let todo: Vec<&Waiting> = batch
            .iter()
            .filter(|w| !journal.known.contains_key(&w.key))
            .collect();
        reused += batch.len() - todo.len();
        let results = search_all(&mut engines, &todo, &tree.seeds, settings)?;
        for (w, lines) in todo.iter().zip(results) {
            let s = Searched {
                path: w.path.clone(),
                lines,
            };
            journal.append(&s)?;
            journal.known.insert(w.key, s);
        }
        for w in batch {
            let s = Searched {
                path: w.path,
                ..journal.known[&w.key].clone()
            };
            tree.insert(w.key, s);
        }
        journal.file.flush()?;
        let secs = start.elapsed().as_secs_f64();
        let fresh = tree.nodes.len() - reused;
        eprintln!(
            "{} positions searched ({} from the journal), {:.1} positions/s",
            tree.nodes.len(),
            reused,
            fresh as f64 / secs.max(1e-3),
        );
    }
    Ok(tree.records())
}

/// Search each position of `todo` on the engines, in parallel (each engine takes the next
/// position when it is free); results in `todo`'s order.
fn search_all(
    engines: &mut [Engine],
    todo: &[&Waiting],
    seeds: &BTreeMap<u64, BTreeSet<Move>>,
    s: &Settings,
) -> Result<Vec<Lines>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Lines>>>> =
        Mutex::new((0..todo.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for engine in engines.iter_mut() {
            let (next, results) = (&next, &results);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(w) = todo.get(i) else { break };
                let here: Vec<Move> = seeds.get(&w.key).into_iter().flatten().copied().collect();
                let found = search(engine, &w.path, &here, s);
                results.lock()[i] = Some(found);
            });
        }
    });
    results
        .into_inner()
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(anyhow::anyhow!("a search did not run"))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::book::binary::BinaryBook;
    use crate::engine::book::Book;
    use crate::engine::openings::parse_openings;

    fn settings(threads: usize) -> Settings {
        Settings {
            positions: 12,
            nodes: 3_000,
            multipv: 3,
            margin: 40,
            max_ply: 4,
            variety_plies: 2,
            threads,
            batch: 4,
        }
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("chuhan-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        p
    }

    fn book_of(records: &[Record]) -> Book {
        let mut bytes = Vec::new();
        crate::engine::book::binary::write(&mut bytes, records).unwrap();
        Book::from_binary(BinaryBook::from_bytes(bytes).unwrap())
    }

    #[test]
    fn the_same_settings_build_the_same_book_on_any_threads_and_after_a_restart() {
        let seeds = parse_openings("c3c4 c6c5\n").unwrap();
        let one = temp("one.journal");
        let two = temp("two.journal");
        let a = build(&settings(1), &seeds, &one).unwrap();
        let b = build(&settings(2), &seeds, &two).unwrap();
        assert_eq!(a, b);
        // A journal cut in the middle of a line (a killed build) loses that line only.
        let text = std::fs::read_to_string(&one).unwrap();
        let cut = &text[..text.len() - 40];
        std::fs::write(&one, cut).unwrap();
        let searched_before = cut.lines().filter(|l| l.ends_with(';')).count();
        assert!(searched_before >= 10, "{searched_before}");
        let again = build(&settings(2), &seeds, &one).unwrap();
        assert_eq!(a, again);
        // Other search settings do not mix with the journal's.
        let mut other = settings(1);
        other.nodes += 1;
        assert!(build(&other, &seeds, &one).is_err());
        std::fs::remove_file(one).unwrap();
        std::fs::remove_file(two).unwrap();
    }

    #[test]
    fn the_book_holds_the_seed_lines_and_plays_legal_moves() {
        let seeds = parse_openings("c3c4 c6c5\n").unwrap();
        let journal = temp("seed.journal");
        let records = build(&settings(2), &seeds, &journal).unwrap();
        std::fs::remove_file(journal).unwrap();
        let book = book_of(&records);
        let mut pos = Position::startpos();
        for m in ["c3c4", "c6c5"] {
            let mv = pos.parse_move(m).unwrap();
            assert!(
                book.moves(&pos).iter().any(|b| b.mv == mv),
                "seed move {m} missing"
            );
            pos.make_move(mv);
        }
        // Every record: a canonical key, a legal move there, a score.
        let start = Position::startpos();
        assert!(!book.moves(&start).is_empty());
        for r in &records {
            assert_ne!(r.score, crate::engine::book::binary::NO_SCORE);
            assert!(r.weight <= 1000);
        }
        let keys: std::collections::BTreeSet<u64> = records.iter().map(|r| r.key).collect();
        assert!(keys.len() >= 8, "{}", keys.len());
    }

    #[test]
    fn weights_halve_every_half_margin_then_eight_times_as_fast() {
        assert_eq!(weight(0, 40, 0, 10), 1000);
        assert_eq!(weight(20, 40, 0, 10), 500);
        assert_eq!(weight(40, 40, 9, 10), 250);
        assert_eq!(weight(-5, 40, 0, 10), 1000);
        assert_eq!(weight(10_000, 40, 0, 10), 1);
        assert_eq!(weight(0, 40, 10, 10), 1000);
        assert_eq!(weight(5, 40, 10, 10), 250);
        // 10 below the best deep in the book: just played (1/16 of the best, rounded up).
        assert_eq!(weight(10, 40, 30, 10), 63);
        assert_eq!(weight(15, 40, 30, 10), 16);
    }
}
