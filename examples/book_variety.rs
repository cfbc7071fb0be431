//! How varied the games a book plays are: distinct positions at plies 10 and 20 over a PGN file,
//! and how deep the games stayed in the book (the longest run of moves from the start that the
//! book holds).
//!
//!     cargo run --release --example book_variety -- games.pgn [book file]
//!
//! Without a book file, the built-in book is used.

use chuhan::engine::book::Book;
use chuhan::tools::match_runner::pgn::read_pgn;
use std::collections::HashSet;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(pgn) = args.first() else {
        eprintln!("usage: book_variety games.pgn [book file]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(pgn).unwrap_or_else(|e| {
        eprintln!("{pgn}: {e}");
        std::process::exit(2);
    });
    let book = match args.get(1) {
        Some(path) => match Book::open(std::path::Path::new(path)) {
            Ok(opened) => opened.book,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        },
        None => Book::built_in(),
    };
    let games = read_pgn(&text).unwrap_or_else(|e| {
        eprintln!("{pgn}: {e}");
        std::process::exit(2);
    });
    let mut at = [HashSet::new(), HashSet::new()];
    let mut depths = Vec::new();
    for g in &games {
        let mut pos =
            chuhan::board::position::Position::from_fen(&g.fen).expect("read_pgn checked it");
        let mut in_book = true;
        let mut depth = 0;
        for (ply, &m) in g.moves.iter().enumerate() {
            if in_book && book.moves(&pos).iter().any(|b| b.mv == m) {
                depth += 1;
            } else {
                in_book = false;
            }
            pos.make_move(m);
            match ply + 1 {
                10 => at[0].insert(pos.key()),
                20 => at[1].insert(pos.key()),
                _ => false,
            };
        }
        depths.push(depth);
    }
    depths.sort_unstable();
    println!("games: {}", games.len());
    println!("distinct positions at ply 10: {}", at[0].len());
    println!("distinct positions at ply 20: {}", at[1].len());
    if let (Some(median), Some(longest)) = (depths.get(depths.len() / 2), depths.last()) {
        let mean = depths.iter().sum::<usize>() as f64 / depths.len() as f64;
        println!("plies in book: median {median}, mean {mean:.1}, longest {longest}");
    }
}
