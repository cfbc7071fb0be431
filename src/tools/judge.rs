//! `chuhan judge`: adjudicate games for a tournament director.
//!
//! Input, one game a line: `<FEN> [moves m1 m2 …]`, where the FEN may be `startpos` (a leading
//! `fen ` or `position ` is ignored, so UCCI `position` lines work too) and the moves may be
//! written in coordinates (`h2e2`), ICCS (`H2-E2`) or WXF (`C2.5`), see `crate::board::notation`. Blank lines and lines
//! starting with `#` are skipped. Output, one line per game: `<verdict>: <reason>`, the verdict
//! being `red-wins`, `black-wins`, `draw` or `ongoing`, e.g.
//! `black-wins: perpetual check by red`, `draw: 60-move limit`, `red-wins: stalemate`.
//!
//! Only the final position is judged (the game may have gone on past an earlier repetition that
//! nobody claimed); repetition is ruled when the final position has occurred three times.
//! An illegal move loses for the side that played it (seed 4.1.2 "走棋后形成帅（将）直接对面" and
//! 4.1.6 "走棋违反行棋规定"): `red-wins: illegal move e9d9 at ply 4 (black)`. Input that is no game
//! at all (a malformed FEN, a move written in no known notation, bytes that are not UTF-8)
//! prints `error: …`. Nothing panics; the next line is judged as usual.

use crate::board::notation;
use crate::board::position::MoveError;
use crate::board::position_line::{self, PositionError, PositionSpec};
use crate::rules::cycle::explain_cycle;
use crate::rules::{adjudicate, color_name, earlier_occurrence, Outcome, RuleSet};
use std::io::{self, BufRead, Write};

/// Judge one input line; `None` for a blank or comment line.
pub fn judge_line(line: &str, rules: RuleSet) -> Option<String> {
    judge_line_with(line, rules, false)
}

/// Judge one input line; with `explain`, a repetition verdict is followed by one indented line
/// per move of the cycle saying what the move does.
pub fn judge_line_with(line: &str, rules: RuleSet, explain: bool) -> Option<String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let spec = match PositionSpec::parse(line) {
        Ok(spec) => spec,
        Err(e) => return Some(format!("error: {e}")),
    };
    let mut pos = match position_line::root(spec.fen.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            let fen = spec.fen.unwrap_or_default();
            return Some(format!("error: bad FEN '{fen}': {e}"));
        }
    };
    match position_line::play_moves(&mut pos, &spec.moves, notation::parse_move) {
        Ok(()) => {}
        Err(PositionError::Move(ply, MoveError::Syntax(text))) => {
            return Some(format!("error: cannot parse move '{text}' at ply {ply}"));
        }
        Err(PositionError::Move(ply, MoveError::Illegal(text))) => {
            // `pos` stands before the illegal move: its side to move played it.
            let mover = pos.side_to_move();
            return Some(format!(
                "{}: illegal move {text} at ply {ply} ({})",
                Outcome::loss_for(mover),
                color_name(mover)
            ));
        }
        Err(e @ PositionError::Fen(_)) => return Some(format!("error: {e}")),
    }
    let mut out = match adjudicate(&pos, rules) {
        Some(r) => format!("{}: {}", r.outcome, r.reason),
        None => "ongoing: no game-ending rule applies".to_string(),
    };
    if explain {
        if let Some(span) = earlier_occurrence(&pos, 2).or_else(|| earlier_occurrence(&pos, 1)) {
            for l in explain_cycle(&pos, span, rules) {
                out.push_str("\n  ");
                out.push_str(&l);
            }
        }
    }
    Some(out)
}

/// Read games from `input`, one a line, and write one verdict line each to `output`.
/// With `explain`, repetition verdicts are followed by the cycle's moves and what each does.
/// A line that is not UTF-8 gets `error: line N is not UTF-8` and the next line is judged.
pub fn run<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    rules: RuleSet,
    explain: bool,
) -> io::Result<()> {
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        let verdict = match std::str::from_utf8(&bytes) {
            Ok(line) => judge_line_with(line, rules, explain),
            Err(_) => Some(format!("error: line {number} is not UTF-8")),
        };
        if let Some(verdict) = verdict {
            writeln!(output, "{verdict}")?;
            output.flush()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_may_be_written_in_iccs_or_wxf() {
        let judge = |l: &str| judge_line(l, RuleSet::default()).unwrap();
        let mate = "3k5/9/9/9/9/9/9/9/2R6/4K4 w moves";
        assert_eq!(judge(&format!("{mate} c1d1")), "red-wins: checkmate");
        assert_eq!(judge(&format!("{mate} C1-D1")), "red-wins: checkmate");
        assert_eq!(judge(&format!("{mate} R7.6")), "red-wins: checkmate");
        assert_eq!(
            judge(&format!("{mate} R7+9")),
            "black-wins: illegal move R7+9 at ply 1 (red)"
        );
        assert_eq!(
            judge("startpos moves C2=5 H8+7 H2+3"),
            "ongoing: no game-ending rule applies"
        );
        assert_eq!(
            judge("startpos moves C2.5 炮8平5"),
            "error: cannot parse move '炮8平5' at ply 2"
        );
    }

    #[test]
    fn a_line_that_is_not_utf8_is_an_error_and_the_rest_is_judged() {
        let input: &[u8] = b"# games\n\xc3\x28 startpos\r\nstartpos moves h2e2\n\n\xff";
        let mut out = Vec::new();
        run(input, &mut out, RuleSet::default(), false).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "error: line 2 is not UTF-8\n\
             ongoing: no game-ending rule applies\n\
             error: line 5 is not UTF-8\n"
        );
    }
}
