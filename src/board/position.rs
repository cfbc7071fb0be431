//! `Position`: the placement, the side to move, the Zobrist key and the history of states
//! since the position was set up; make/unmake (and a null move), checkers, FEN in and out,
//! and the legality test for pseudo-legal moves.
//!
//! Invariants: each side has exactly one king, inside its palace; `key` always equals the key
//! computed from scratch; `history` ends with the state of the current position.

use crate::board::attacks::*;
use crate::board::bitboard::Bitboard;
use crate::board::types::*;
use crate::board::zobrist;
use std::fmt;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// What a position remembers about each move played, to undo it and to judge repetitions.
#[derive(Clone, Copy, Debug)]
pub struct StateInfo {
    /// Zobrist key of the position after the move.
    pub key: u64,
    /// Pieces giving check to the side to move after the move.
    pub checkers: Bitboard,
    /// The move that led here (`Move::NONE` for the initial state, `Move::NULL` for a pass).
    pub mv: Move,
    /// The piece the move captured, if any.
    pub captured: Option<Piece>,
    /// Plies since the last capture (the natural-limit counter).
    pub rule60: u16,
    /// Plies since the last null move (repetition checks stop there).
    pub plies_from_null: u16,
}

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing to parse.
    Empty,
    /// The board does not have 10 ranks.
    RankCount(usize),
    /// A rank does not describe exactly 9 points.
    RankWidth {
        /// Rank number (0 = Red's back rank).
        rank: usize,
        /// How many points it described.
        width: usize,
    },
    /// A character that is no piece letter.
    UnknownPiece(char),
    /// The side to move is not `w`, `r` or `b`.
    BadSide(String),
    /// A counter field that is not a number.
    BadNumber(String),
    /// More pieces of a kind than a side ever has.
    TooMany(char),
    /// A piece on a point it can never reach (e.g. an elephant across the river).
    UnreachableSquare(char, Square),
    /// A side without a king.
    MissingKing(Color),
    /// The side that just moved is in check.
    OpponentInCheck,
    /// The kings face each other on an open file.
    KingsFacing,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(n) => write!(f, "the board has {n} ranks, expected 10"),
            FenError::RankWidth { rank, width } => {
                write!(f, "rank {rank} describes {width} points, expected 9")
            }
            FenError::UnknownPiece(c) => write!(f, "unknown piece letter '{c}'"),
            FenError::BadSide(s) => write!(f, "bad side to move '{s}' (expected w, r or b)"),
            FenError::BadNumber(s) => write!(f, "bad move counter '{s}'"),
            FenError::TooMany(c) => write!(f, "too many pieces '{c}'"),
            FenError::UnreachableSquare(c, sq) => write!(f, "piece '{c}' can never stand on {sq}"),
            FenError::MissingKing(c) => write!(f, "{c:?} has no king"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::KingsFacing => write!(f, "the kings face each other"),
        }
    }
}

impl std::error::Error for FenError {}

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `h2e2`.
    Syntax(String),
    /// Well formed but not legal here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "cannot parse move '{s}'"),
            MoveError::Illegal(s) => write!(f, "illegal move '{s}'"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A xiangqi position with its history.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; SQUARE_NB],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
    king: [Square; 2],
    /// Pieces of each colour and kind, kept with the bitboards: the evaluation asks often,
    /// and a count is cheaper read than computed.
    counts: [[u8; 7]; 2],
    side: Color,
    /// Full-move number of the current position (starts at 1, +1 after Black moves).
    fullmove: u32,
    history: Vec<StateInfo>,
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("start FEN is valid")
    }

    /// Parse a FEN: 6 fields or just `<board> [<side>]`; side `w`/`r` (Red) or `b`.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let board_text = fields.next().ok_or(FenError::Empty)?;
        let mut pos = Position {
            board: [None; SQUARE_NB],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 7],
            king: [Square::new(0); 2],
            counts: [[0; 7]; 2],
            side: Color::Red,
            fullmove: 1,
            history: Vec::with_capacity(256),
        };
        let rows: Vec<&str> = board_text.split('/').collect();
        if rows.len() != RANK_NB {
            return Err(FenError::RankCount(rows.len()));
        }
        let mut counts = [[0u32; 7]; 2];
        for (i, row) in rows.iter().enumerate() {
            let rank = RANK_NB - 1 - i;
            let mut file = 0usize;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                    continue;
                }
                let piece = Piece::from_char(c).ok_or(FenError::UnknownPiece(c))?;
                if file >= FILE_NB {
                    return Err(FenError::RankWidth {
                        rank,
                        width: file + 1,
                    });
                }
                let sq = Square::from_coords(file, rank);
                let (color, kind) = (piece.color(), piece.kind());
                counts[color.index()][kind.index()] += 1;
                if counts[color.index()][kind.index()] > kind.max_count() {
                    return Err(FenError::TooMany(piece.to_char()));
                }
                if !Self::reachable(piece, sq) {
                    return Err(FenError::UnreachableSquare(piece.to_char(), sq));
                }
                pos.put(piece, sq);
                file += 1;
            }
            if file != FILE_NB {
                return Err(FenError::RankWidth { rank, width: file });
            }
        }
        for c in Color::ALL {
            if counts[c.index()][PieceKind::King.index()] == 0 {
                return Err(FenError::MissingKing(c));
            }
        }
        pos.side = match fields.next() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.to_string())),
        };
        // Castling and en passant fields exist only for chess compatibility.
        let _ = (fields.next(), fields.next());
        let rule60 = Self::parse_counter(fields.next(), 0)?;
        pos.fullmove = Self::parse_counter(fields.next(), 1)?.max(1);

        let (red_king, black_king) = (pos.king[0], pos.king[1]);
        if red_king.file() == black_king.file()
            && file_attacks(red_king, pos.occupied()).has(black_king)
        {
            return Err(FenError::KingsFacing);
        }
        let them = pos.side.flip();
        if pos
            .king_attackers(pos.king[them.index()], pos.side, pos.occupied())
            .any()
        {
            return Err(FenError::OpponentInCheck);
        }
        let checkers = pos.king_attackers(pos.king[pos.side.index()], them, pos.occupied());
        pos.history.push(StateInfo {
            key: pos.compute_key(),
            checkers,
            mv: Move::NONE,
            captured: None,
            rule60: rule60.min(u16::MAX as u32) as u16,
            plies_from_null: 0,
        });
        Ok(pos)
    }

    fn parse_counter(field: Option<&str>, default: u32) -> Result<u32, FenError> {
        match field {
            None | Some("-") => Ok(default),
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| FenError::BadNumber(s.to_string())),
        }
    }

    /// Whether `piece` may ever stand on `sq` (palace, elephant points, pawn points).
    pub fn reachable(piece: Piece, sq: Square) -> bool {
        let color = piece.color();
        // Work in Red's frame: rank counted from the piece's own back rank.
        let rel = if color == Color::Red {
            sq
        } else {
            sq.flip_rank()
        };
        let (f, r) = (rel.file(), rel.rank());
        match piece.kind() {
            PieceKind::King => Bitboard::palace(Color::Red).has(rel),
            PieceKind::Advisor => matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)),
            PieceKind::Elephant => matches!(
                (f, r),
                (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
            ),
            PieceKind::Pawn => r >= 5 || (r >= 3 && f % 2 == 0),
            _ => true,
        }
    }

    /// Place a piece on an empty point (set-up only).
    fn put(&mut self, piece: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color().index()] |= b;
        self.by_kind[piece.kind().index()] |= b;
        self.counts[piece.color().index()][piece.kind().index()] += 1;
        if piece.kind() == PieceKind::King {
            self.king[piece.color().index()] = sq;
        }
    }

    /// The key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut key = zobrist::color_key(self.side);
        for sq in self.occupied() {
            key ^= zobrist::piece_key(self.board[sq.index()].unwrap(), sq);
        }
        key
    }

    /// FEN of the position (6 fields, side `w` or `b`).
    pub fn to_fen(&self) -> String {
        let s = board_fen(&self.board);
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        format!("{s} {side} - - {} {}", self.rule60(), self.fullmove)
    }

    /// Piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All pieces of `kind`, both colours.
    #[inline(always)]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// How many pieces of `color` and `kind` are on the board.
    #[inline(always)]
    pub fn count(&self, color: Color, kind: PieceKind) -> u32 {
        u32::from(self.counts[color.index()][kind.index()])
    }

    /// How many pieces of `color` are on the board.
    #[inline(always)]
    pub fn color_count(&self, color: Color) -> u32 {
        self.counts[color.index()]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Every occupied point.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Where `color`'s king stands.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.king[color.index()]
    }

    #[inline(always)]
    fn state(&self) -> &StateInfo {
        // The history always holds at least the initial state.
        self.history
            .last()
            .expect("position history is never empty")
    }

    /// Zobrist key of the position.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.state().key
    }

    /// Pieces checking the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.state().checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.state().checkers.any()
    }

    /// Plies since the last capture (or since set-up, plus the FEN's counter).
    #[inline(always)]
    pub fn rule60(&self) -> u32 {
        self.state().rule60 as u32
    }

    /// Plies since the last null move or since set-up, whichever is nearer.
    #[inline(always)]
    pub fn plies_from_null(&self) -> u32 {
        self.state().plies_from_null as u32
    }

    /// Full-move number.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The states since set-up, oldest first; the last is the current position's.
    pub fn history(&self) -> &[StateInfo] {
        &self.history
    }

    /// The last move made, if the position was just reached by one (not by a pass, not set
    /// up): the piece that moved, the move, and what it captured. What incremental
    /// evaluations apply.
    #[inline(always)]
    pub fn last_move(&self) -> Option<(Piece, Move, Option<Piece>)> {
        let st = self.state();
        if !st.mv.is_ok() {
            return None;
        }
        Some((self.piece_on(st.mv.to())?, st.mv, st.captured))
    }

    /// Plies played since the position was set up.
    pub fn game_ply(&self) -> usize {
        self.history.len() - 1
    }

    /// Pieces of `them` attacking a king of the other colour on `ksq` under occupancy `occ`:
    /// rooks, cannons, horses, pawns, and `them`'s king if it faces `ksq` (将帅对面).
    /// Advisors and elephants never leave their own side, so they can never check.
    #[inline(always)]
    pub fn king_attackers(&self, ksq: Square, them: Color, occ: Bitboard) -> Bitboard {
        self.king_attackers_among(ksq, self.by_color[them.index()], them, occ)
    }

    #[inline(always)]
    fn king_attackers_among(
        &self,
        ksq: Square,
        enemy: Bitboard,
        them: Color,
        occ: Bitboard,
    ) -> Bitboard {
        let k = &self.by_kind;
        ((rook_attacks(ksq, occ) & (k[PieceKind::Rook.index()] | k[PieceKind::King.index()]))
            | (cannon_attacks(ksq, occ) & k[PieceKind::Cannon.index()])
            | (horse_attackers_of(ksq, occ) & k[PieceKind::Horse.index()])
            | (pawn_attackers_of(them, ksq) & k[PieceKind::Pawn.index()]))
            & enemy
    }

    /// Every piece of `color` attacking `sq` under occupancy `occ` (all kinds; a king only by
    /// its step, not by facing).
    pub fn attackers_to(&self, sq: Square, color: Color, occ: Bitboard) -> Bitboard {
        let k = &self.by_kind;
        ((rook_attacks(sq, occ) & k[PieceKind::Rook.index()])
            | (cannon_attacks(sq, occ) & k[PieceKind::Cannon.index()])
            | (horse_attackers_of(sq, occ) & k[PieceKind::Horse.index()])
            | (pawn_attackers_of(color, sq) & k[PieceKind::Pawn.index()])
            | (king_attacks(sq) & k[PieceKind::King.index()])
            | (advisor_attacks(sq) & k[PieceKind::Advisor.index()])
            | (elephant_attacks(sq, occ) & k[PieceKind::Elephant.index()]))
            & self.by_color[color.index()]
            & occ
    }

    /// Whether a pseudo-legal move leaves the mover's king safe: not attacked, and not facing
    /// the other king. Only moves that touch the king's lines or horse legs (or any move while
    /// in check) need the full test.
    #[inline(always)]
    pub fn is_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let them = us.flip();
        let ksq = self.king[us.index()];
        let to_bb = Bitboard::from_square(to);
        let enemy = self.by_color[them.index()].without(to_bb);
        let occ = (self.occupied() ^ Bitboard::from_square(from)) | to_bb;
        if from == ksq {
            return self.king_attackers_among(to, enemy, them, occ).is_empty();
        }
        let exposure = king_exposure(ksq);
        if !self.in_check() && !exposure.has(from) && !exposure.has(to) {
            return true;
        }
        self.king_attackers_among(ksq, enemy, them, occ).is_empty()
    }

    /// Whether the legal move `m` checks the other king: the same answer as `in_check` after
    /// `make_move(m)`, without making it. The moved piece may check from its new point, and
    /// leaving its old one (or taking a piece) may open a rook's line, a horse's leg or a
    /// cannon's screen, as landing may give a cannon its screen.
    #[inline(always)]
    pub fn gives_check(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let ksq = self.king[us.flip().index()];
        let from_bb = Bitboard::from_square(from);
        let occ = (self.occupied() ^ from_bb) | Bitboard::from_square(to);
        let others = self.by_color[us.index()].without(from_bb);
        if self.king_attackers_among(ksq, others, us, occ).any() {
            return true;
        }
        let Some(piece) = self.board[from.index()] else {
            return false;
        };
        match piece.kind() {
            PieceKind::Rook | PieceKind::King => rook_attacks(to, occ).has(ksq),
            PieceKind::Cannon => cannon_attacks(to, occ).has(ksq),
            PieceKind::Horse => horse_attackers_of(ksq, occ).has(to),
            PieceKind::Pawn => pawn_attackers_of(us, ksq).has(to),
            PieceKind::Advisor | PieceKind::Elephant => false,
        }
    }

    /// Whether `m` is a pseudo-legal move here: the right colour moves, the target is not
    /// its own, and the piece can reach it. Used to vet moves from the hash table.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        if !m.is_ok() {
            return false;
        }
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return false;
        };
        let us = self.side;
        if piece.color() != us || self.by_color[us.index()].has(to) {
            return false;
        }
        let occ = self.occupied();
        let targets = match piece.kind() {
            PieceKind::King => king_attacks(from),
            PieceKind::Advisor => advisor_attacks(from),
            PieceKind::Elephant => elephant_attacks(from, occ),
            PieceKind::Horse => horse_attacks(from, occ),
            PieceKind::Rook => rook_attacks(from, occ),
            PieceKind::Cannon => {
                if self.board[to.index()].is_some() {
                    cannon_attacks(from, occ)
                } else {
                    rook_attacks(from, occ).without(occ)
                }
            }
            PieceKind::Pawn => pawn_attacks(us, from),
        };
        targets.has(to)
    }

    /// Whether `m` is legal here (any move, e.g. from a book or the hash table).
    pub fn is_legal_move(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.is_legal(m)
    }

    /// Play a legal move.
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let them = us.flip();
        let piece = self.board[from.index()].expect("make_move: no piece on the from-square");
        let captured = self.board[to.index()];
        let prev = *self.state();
        let mut key = prev.key
            ^ zobrist::side_key()
            ^ zobrist::piece_key(piece, from)
            ^ zobrist::piece_key(piece, to);
        let from_to = Bitboard::from_square(from) | Bitboard::from_square(to);
        if let Some(cap) = captured {
            let b = Bitboard::from_square(to);
            self.by_color[them.index()] ^= b;
            self.by_kind[cap.kind().index()] ^= b;
            self.counts[them.index()][cap.kind().index()] -= 1;
            key ^= zobrist::piece_key(cap, to);
        }
        self.by_color[us.index()] ^= from_to;
        self.by_kind[piece.kind().index()] ^= from_to;
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        if piece.kind() == PieceKind::King {
            self.king[us.index()] = to;
        }
        self.side = them;
        if us == Color::Black {
            self.fullmove += 1;
        }
        let checkers = self.king_attackers(self.king[them.index()], us, self.occupied());
        self.history.push(StateInfo {
            key,
            checkers,
            mv: m,
            captured,
            rule60: if captured.is_some() {
                0
            } else {
                prev.rule60.saturating_add(1)
            },
            plies_from_null: prev.plies_from_null.saturating_add(1),
        });
    }

    /// Take back the last move made by `make_move`.
    pub fn unmake_move(&mut self) {
        let st = self.history.pop().expect("unmake_move without a move");
        let m = st.mv;
        let (from, to) = (m.from(), m.to());
        let them = self.side;
        let us = them.flip();
        let piece = self.board[to.index()].expect("unmake_move: no piece on the to-square");
        let from_to = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_color[us.index()] ^= from_to;
        self.by_kind[piece.kind().index()] ^= from_to;
        self.board[from.index()] = Some(piece);
        self.board[to.index()] = st.captured;
        if let Some(cap) = st.captured {
            let b = Bitboard::from_square(to);
            self.by_color[them.index()] ^= b;
            self.by_kind[cap.kind().index()] ^= b;
            self.counts[them.index()][cap.kind().index()] += 1;
        }
        if piece.kind() == PieceKind::King {
            self.king[us.index()] = from;
        }
        self.side = us;
        if us == Color::Black {
            self.fullmove -= 1;
        }
    }

    /// Pass the turn (null-move pruning); never while in check.
    pub fn make_null(&mut self) {
        let prev = *self.state();
        self.side = self.side.flip();
        self.history.push(StateInfo {
            key: prev.key ^ zobrist::side_key(),
            checkers: Bitboard::EMPTY,
            mv: Move::NULL,
            captured: None,
            rule60: prev.rule60.saturating_add(1),
            plies_from_null: 0,
        });
    }

    /// Take back a null move.
    pub fn unmake_null(&mut self) {
        self.history.pop();
        self.side = self.side.flip();
    }

    /// Whether the move `m` (pseudo-legal) captures.
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()].is_some()
    }

    /// Parse a move in protocol form (`h2e2`) and check that it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        if text.len() != 4 || !text.is_ascii() {
            return Err(MoveError::Syntax(text.to_string()));
        }
        let (Some(from), Some(to)) = (Square::parse(&text[..2]), Square::parse(&text[2..])) else {
            return Err(MoveError::Syntax(text.to_string()));
        };
        let m = Move::new(from, to);
        if self.is_legal_move(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(text.to_string()))
        }
    }

    /// The same position with the colours swapped: every piece changes colour and its rank is
    /// mirrored, and the other side moves (history and counters start afresh). Evaluation and
    /// rules must treat both alike, which tests check with this.
    pub fn color_flipped(&self) -> Position {
        let mut pos = self.rebuilt(self.side.flip(), |p, sq| {
            (Piece::new(p.color().flip(), p.kind()), sq.flip_rank())
        });
        pos.fullmove = 1;
        if let Some(st) = pos.history.last_mut() {
            st.rule60 = 0;
        }
        pos
    }

    /// The same position mirrored left-right (file a ↔ file i), same side to move, fresh history.
    pub fn mirrored(&self) -> Position {
        self.rebuilt(self.side, |p, sq| (p, sq.mirror_file()))
    }

    /// A copy with every piece moved by `map`, `side` to move, and a one-state history (key and
    /// checkers recomputed, counters kept). `map` must give a valid position.
    fn rebuilt(&self, side: Color, map: impl Fn(Piece, Square) -> (Piece, Square)) -> Position {
        let mut pos = self.clone();
        pos.board = [None; SQUARE_NB];
        pos.by_color = [Bitboard::EMPTY; 2];
        pos.by_kind = [Bitboard::EMPTY; 7];
        pos.counts = [[0; 7]; 2];
        pos.side = side;
        for sq in self.occupied() {
            if let Some(p) = self.board[sq.index()] {
                let (p, to) = map(p, sq);
                pos.put(p, to);
            }
        }
        let checkers = pos.king_attackers(pos.king[side.index()], side.flip(), pos.occupied());
        let st = StateInfo {
            key: pos.compute_key(),
            checkers,
            mv: Move::NONE,
            captured: None,
            ..*self.state()
        };
        pos.history = vec![st];
        pos
    }
}

impl fmt::Display for Position {
    /// The board as text (rank 9 on top, files a..i below) followed by the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..RANK_NB).rev() {
            write!(f, "{rank} ")?;
            for file in 0..FILE_NB {
                let c =
                    self.board[Square::from_coords(file, rank).index()].map_or('.', Piece::to_char);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
            if rank == 5 {
                writeln!(f, "   ~~~~~~~~~~~~~~~~~")?;
            }
        }
        writeln!(f, "   a b c d e f g h i")?;
        write!(f, "FEN: {}", self.to_fen())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

/// The board field of a FEN (ranks from Black's back rank down, `/`-separated): the one writer
/// of it, for positions and for boards decoded from elsewhere (training records).
pub fn board_fen(board: &[Option<Piece>; SQUARE_NB]) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..RANK_NB).rev() {
        let mut empty = 0;
        for file in 0..FILE_NB {
            match board[Square::from_coords(file, rank).index()] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.to_char());
                }
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}
