//! Every tunable number of the evaluation, declared once, and its text format.
//!
//! The `params!` list below is the only place a parameter is spelled out: from it come the
//! `Params` struct, its defaults (the built-in evaluation), and a visitor over the numbers by name
//! ([`Params::for_each`]) that the tuner and the text format go through. A `Score` parameter has
//! two numbers, `NAME.mg` and `NAME.eg`; an array's elements are named by key
//! (`material.horse.mg`, `mobility.rook.eg`); an `i32` is one number, `NAME`.
//!
//! The text format (what `chuhan tune fit` reads and writes, and self-play's `params=FILE`) is
//! that of `eval::param_text`, one `name = value` per line. Reading starts from the built-in
//! numbers, so a name left out keeps its value.

use super::Score;
use crate::board::position::Position;
use crate::board::types::{Color, Piece, PieceKind, Square};
use crate::eval::param_text::read_values;

/// The numbers of one parameter, each named from the parameter's name.
trait Numbers {
    fn visit(&mut self, name: &str, f: &mut dyn FnMut(&str, &mut i32));
}

impl Numbers for i32 {
    fn visit(&mut self, name: &str, f: &mut dyn FnMut(&str, &mut i32)) {
        f(name, self);
    }
}

impl Numbers for Score {
    fn visit(&mut self, name: &str, f: &mut dyn FnMut(&str, &mut i32)) {
        f(&format!("{name}.mg"), &mut self.0);
        f(&format!("{name}.eg"), &mut self.1);
    }
}

/// Fitted piece-square offsets of the kind `KIND` (a `PieceKind` index), from Red's side and
/// the same for a point and its left-right mirror: `[rank][file]` over files a–e. Only the
/// points the kind can stand on are numbers, named by point (`pst_horse.c5.mg`); the rest stay 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pst<const KIND: usize>(pub [[Score; 5]; 10]);

impl<const KIND: usize> Pst<KIND> {
    /// All offsets 0.
    pub const ZERO: Pst<KIND> = Pst([[Score(0, 0); 5]; 10]);

    /// The table from `(mg, eg)` rows as the board is drawn, Black's side first: `rows[0]` is
    /// rank 9, `rows[9]` rank 0, each from file a to file e.
    pub const fn from_rows(rows: [[(i32, i32); 5]; 10]) -> Pst<KIND> {
        let mut t = [[Score(0, 0); 5]; 10];
        let mut r = 0;
        while r < 10 {
            let mut f = 0;
            while f < 5 {
                t[9 - r][f] = Score(rows[r][f].0, rows[r][f].1);
                f += 1;
            }
            r += 1;
        }
        Pst(t)
    }

    /// The offset of a piece of this kind on `sq`, from Red's side.
    pub fn at(&self, sq: Square) -> Score {
        let f = sq.file().min(8 - sq.file());
        self.0[sq.rank()][f]
    }
}

impl<const KIND: usize> Numbers for Pst<KIND> {
    fn visit(&mut self, name: &str, f: &mut dyn FnMut(&str, &mut i32)) {
        let red = Piece::new(Color::Red, PieceKind::from_index(KIND));
        for (rank, row) in self.0.iter_mut().enumerate() {
            for (file, score) in row.iter_mut().enumerate() {
                if Position::reachable(red, Square::from_coords(file, rank)) {
                    let letter = (b'a' + file as u8) as char;
                    score.visit(&format!("{name}.{letter}{rank}"), f);
                }
            }
        }
    }
}

/// Declares `Params` from a list of `/// doc` + `name: Type = default`. A default is an integer
/// literal (`i32`), `(mg, eg)` (`Score`), `[key: default, …]` (an array, one key per element;
/// a `_` key is a fixed element that is not a parameter), or `{expression}` (a `Pst`).
macro_rules! params {
    (@default [$($key:tt : $value:tt),* $(,)?]) => { [$(params!(@default $value)),*] };
    (@default ($mg:expr, $eg:expr)) => { Score($mg, $eg) };
    (@default $value:literal) => { $value };
    (@default {$value:expr}) => { $value };

    (@visit $f:ident, $field:expr, $name:ident, [$($key:tt : $value:tt),* $(,)?]) => {{
        let [$($key),*] = $field;
        $(params!(@element $f, $name, $key);)*
    }};
    (@visit $f:ident, $field:expr, $name:ident, $value:tt) => {
        Numbers::visit($field, stringify!($name), $f)
    };
    (@element $f:ident, $name:ident, _) => {};
    (@element $f:ident, $name:ident, $key:ident) => {
        Numbers::visit($key, concat!(stringify!($name), ".", stringify!($key)), $f)
    };

    ($($(#[doc = $doc:literal])* $name:ident : $ty:ty = $value:tt),* $(,)?) => {
        /// Every tunable number of the evaluation (declared once, in `eval/params.rs`).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        impl Default for Params {
            fn default() -> Params {
                Params { $($name: params!(@default $value),)* }
            }
        }

        impl Params {
            /// Visit every parameter: `field` gets its documentation, then `number` each of its
            /// numbers by name, in declaration order.
            fn visit(
                &mut self,
                field: &mut dyn FnMut(&str),
                number: &mut dyn FnMut(&str, &mut i32),
            ) {
                $(
                    field(concat!($($doc, "\n"),*));
                    params!(@visit number, &mut self.$name, $name, $value);
                )*
            }
        }
    };
}

params! {
    /// Material per kind, indexed by `PieceKind`. The king has none: both kings are always on
    /// the board, so it would cancel out.
    material: [Score; 7] = [
        _: (0, 0),
        advisor: (225, 67),
        elephant: (181, 13),
        horse: (375, 319),
        rook: (1122, 1080),
        cannon: (534, 352),
        pawn: (45, 116),
    ],
    /// Pawn bonus once across the river.
    pawn_crossed: Score = (47, 52),
    /// Pawn bonus per rank advanced beyond the river (up to the enemy palace).
    pawn_advance: Score = (57, -17),
    /// Pawn bonus for standing on the three palace files once across.
    pawn_center: Score = (65, 41),
    /// Penalty for a pawn that reached the enemy back rank.
    pawn_bottom: Score = (-121, -44),
    /// Horse centralisation per step toward the centre.
    horse_center: Score = (15, 8),
    /// Horse bonus per rank advanced.
    horse_advance: Score = (30, 9),
    /// Rook bonus per rank advanced.
    rook_advance: Score = (13, 2),
    /// Cannon bonus on the central file.
    cannon_center: Score = (52, 7),
    /// Mobility per reachable point.
    mobility: [Score; 3] = [rook: (5, 2), horse: (12, -2), cannon: (2, -2)],
    /// Penalty per missing advisor or elephant, per enemy attacking piece across the river.
    missing_defender: Score = (-16, -18),
    /// Rook on an open file toward the enemy king's palace.
    rook_open_file: Score = (30, 38),
    /// Cannon aimed at the enemy king with exactly one screen.
    cannon_pin_king: Score = (7, -51),
    /// Enemy horse within two steps of the king's palace.
    horse_near_palace: Score = (18, -34),
    /// Two crossed pawns side by side.
    pawn_connected: Score = (-20, -1),
    /// Tempo for the side to move.
    tempo: i32 = { -9 },
    /// Piece-square offsets of the king (its palace points).
    pst_king: Pst<0> = { Pst::from_rows([
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (-137, 21), (-82, 5)],
        [(0, 0), (0, 0), (0, 0), (-1, 13), (14, -10)],
        [(0, 0), (0, 0), (0, 0), (84, -15), (131, -12)],
    ]) },
    /// Piece-square offsets of the advisor.
    pst_advisor: Pst<1> = { Pst::from_rows([
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (-22, -42), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (56, -55)],
        [(0, 0), (0, 0), (0, 0), (-7, -54), (0, 0)],
    ]) },
    /// Piece-square offsets of the elephant.
    pst_elephant: Pst<2> = { Pst::from_rows([
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (-28, 2), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(-26, -6), (0, 0), (0, 0), (0, 0), (69, -17)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (-9, 5), (0, 0), (0, 0)],
    ]) },
    /// Piece-square offsets of the horse.
    pst_horse: Pst<3> = { Pst::from_rows([
        [(6, -15), (-64, -39), (-100, -40), (29, 26), (-1, -6)],
        [(-6, -30), (45, 33), (86, -30), (-20, -15), (8, 13)],
        [(8, 13), (-91, 13), (-35, 3), (-5, -18), (34, -11)],
        [(-24, 37), (113, -20), (-44, 14), (66, -19), (-58, 14)],
        [(36, 22), (45, -6), (-6, -6), (5, 30), (32, -12)],
        [(13, 8), (-28, 37), (77, 16), (-30, 18), (-16, 18)],
        [(0, -6), (-19, -18), (-48, -16), (-38, 6), (-7, 42)],
        [(28, 17), (-22, 37), (-21, 5), (30, 21), (9, 4)],
        [(26, -80), (11, 22), (1, -28), (-12, -9), (6, -72)],
        [(-42, -24), (-19, 35), (11, 20), (53, -51), (-6, -10)],
    ]) },
    /// Piece-square offsets of the rook.
    pst_rook: Pst<4> = { Pst::from_rows([
        [(-16, -14), (-20, 9), (-61, -3), (6, -77), (19, 53)],
        [(-7, -29), (1, 27), (-12, -12), (26, -76), (-13, 5)],
        [(-21, -19), (-31, -2), (-3, -10), (15, -64), (0, -11)],
        [(13, -5), (9, 6), (54, -14), (9, -18), (-27, 9)],
        [(-1, -6), (-23, 25), (19, 14), (5, -15), (21, -3)],
        [(-27, -3), (13, 4), (60, -13), (18, -6), (6, 2)],
        [(-4, 35), (29, 43), (43, 27), (21, 6), (17, 6)],
        [(-40, 6), (-13, 30), (25, -30), (-6, 30), (-53, 18)],
        [(-18, 4), (23, 3), (-8, 44), (-4, -6), (-39, 20)],
        [(-23, -72), (40, -40), (6, -50), (17, -59), (-18, -30)],
    ]) },
    /// Piece-square offsets of the cannon.
    pst_cannon: Pst<5> = { Pst::from_rows([
        [(140, 0), (46, -7), (-25, -20), (-51, -62), (-1, -61)],
        [(30, -58), (-50, 6), (-28, -26), (-2, -27), (-30, -33)],
        [(65, -27), (-37, 3), (-18, -23), (-43, -20), (-98, -46)],
        [(27, -32), (-26, 7), (50, -34), (-37, 8), (39, -18)],
        [(15, -32), (-71, 48), (-26, 8), (-17, 5), (100, -62)],
        [(6, 89), (-32, 33), (15, 18), (-1, 60), (-26, 45)],
        [(65, 58), (-40, -35), (27, -6), (-6, 68), (-6, 88)],
        [(-40, -8), (-15, -62), (26, 8), (44, 51), (36, 46)],
        [(-18, 27), (-5, -65), (32, -13), (44, -7), (-2, 25)],
        [(-8, 53), (-11, -4), (-25, 16), (-1, 77), (-7, 22)],
    ]) },
    /// Piece-square offsets of the pawn.
    pst_pawn: Pst<6> = { Pst::from_rows([
        [(-10, 30), (-18, 39), (27, 38), (-4, -51), (-3, -54)],
        [(-34, 9), (-16, 16), (3, 2), (10, -21), (33, 19)],
        [(-51, 2), (47, -7), (30, 16), (5, 16), (38, 65)],
        [(-46, -11), (-30, 9), (34, -26), (-12, 19), (4, 2)],
        [(-18, -48), (3, -36), (30, -10), (-36, 11), (13, 4)],
        [(-26, -17), (0, 0), (19, -8), (0, 0), (53, 32)],
        [(-47, 18), (0, 0), (-53, 4), (0, 0), (76, 4)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
    ]) },
}

impl Params {
    /// The fitted piece-square offset of a Red `kind` on `sq`.
    pub fn pst_offset(&self, kind: PieceKind, sq: Square) -> Score {
        match kind {
            PieceKind::King => self.pst_king.at(sq),
            PieceKind::Advisor => self.pst_advisor.at(sq),
            PieceKind::Elephant => self.pst_elephant.at(sq),
            PieceKind::Horse => self.pst_horse.at(sq),
            PieceKind::Rook => self.pst_rook.at(sq),
            PieceKind::Cannon => self.pst_cannon.at(sq),
            PieceKind::Pawn => self.pst_pawn.at(sq),
        }
    }

    /// Call `f` on every number with its name, always in the same (declaration) order.
    pub fn for_each(&mut self, mut f: impl FnMut(&str, &mut i32)) {
        self.visit(&mut |_| {}, &mut f);
    }

    /// The names of all numbers, in [`Params::for_each`] order.
    pub fn names() -> Vec<String> {
        let mut names = Vec::new();
        Params::default().for_each(|name, _| names.push(name.to_string()));
        names
    }

    /// The text format: each parameter's documentation as `#` comments, then its numbers, one
    /// `name = value` a line.
    pub fn to_text(&self) -> String {
        // Both callbacks append to `out`; the visitor calls them one at a time.
        let out = std::cell::RefCell::new(String::new());
        self.clone().visit(
            &mut |doc| {
                for line in doc.lines() {
                    out.borrow_mut().push_str(&format!("#{line}\n"));
                }
            },
            &mut |name, value| out.borrow_mut().push_str(&format!("{name} = {value}\n")),
        );
        out.into_inner()
    }

    /// Read the text format over the built-in numbers. Errors name the line.
    pub fn from_text(text: &str) -> Result<Params, String> {
        let names = Params::names();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let given = read_values(text, &names)?;
        let mut p = Params::default();
        let mut given = given.into_iter();
        p.for_each(|_, x| {
            if let Some(Some(value)) = given.next() {
                *x = value;
            }
        });
        Ok(p)
    }

    /// Read a parameter file (see [`Params::from_text`]); errors name the file and the line.
    pub fn load(path: &str) -> Result<Params, String> {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        Params::from_text(&text).map_err(|e| format!("'{path}' {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `name = value` lines of a text, comments and blank lines dropped.
    fn data_lines(text: &str) -> Vec<&str> {
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .collect()
    }

    #[test]
    fn names_follow_the_declaration() {
        let names = Params::names();
        // 45 shape numbers (the king's material is not one), then two numbers for each point
        // a kind can stand on in the left half: king 6, advisor 3, elephant 4, horse, rook and
        // cannon 50 each, pawn 31.
        assert_eq!(names.len(), 45 + 2 * (6 + 3 + 4 + 3 * 50 + 31));
        assert_eq!(names[0], "material.advisor.mg");
        assert_eq!(names[7], "material.rook.eg");
        assert!(names.contains(&"mobility.cannon.eg".to_string()));
        assert_eq!(names[44], "tempo");
        assert_eq!(names[45], "pst_king.d0.mg");
        assert_eq!(names.last().unwrap(), "pst_pawn.e9.eg");
        let has = |n: &str| names.iter().any(|x| x == n);
        assert!(has("pst_horse.c5.mg") && has("pst_advisor.e1.eg") && has("pst_pawn.c3.mg"));
        // Points the kind never stands on are not numbers; nor is the right half.
        assert!(!has("pst_advisor.a0.mg") && !has("pst_pawn.b3.mg") && !has("pst_king.e3.mg"));
        assert!(!has("pst_rook.f0.mg"));
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
    }

    #[test]
    fn text_round_trips() {
        let p = Params::default();
        assert_eq!(Params::from_text(&p.to_text()), Ok(p.clone()));
        // Every number changed: each name reaches its own field.
        let mut q = p.clone();
        let mut k = 0;
        q.for_each(|_, x| {
            k += 1;
            *x = -1000 - k;
        });
        assert_eq!(q.material[0], Score(0, 0), "the king's entry is fixed");
        assert_eq!(q.material[4], Score(-1007, -1008));
        assert_eq!(q.mobility[1], Score(-1031, -1032));
        assert_eq!(q.tempo, -1045);
        assert_eq!(q.pst_king.0[0][3], Score(-1046, -1047), "pst_king.d0");
        assert_eq!(q.pst_king.0[0][0], Score(0, 0), "not a point of the king");
        assert_eq!(Params::from_text(&q.to_text()), Ok(q));
        assert_eq!(data_lines(&p.to_text()).len(), Params::names().len());
        assert!(p.to_text().starts_with("# Material per kind"));
    }

    #[test]
    fn missing_names_keep_the_defaults_and_comments_are_skipped() {
        let text = "# a comment\n\n  mobility.horse.eg = -7   # trailing comment\ntempo=3\n";
        let mut want = Params::default();
        want.mobility[1].1 = -7;
        want.tempo = 3;
        assert_eq!(Params::from_text(text), Ok(want));
        assert_eq!(Params::from_text(""), Ok(Params::default()));
    }

    #[test]
    fn bad_text_is_an_error_naming_the_line() {
        for (text, says) in [
            (
                "tempo = 1\nmaterial.queen.mg = 900\n",
                "line 2: unknown parameter 'material.queen.mg'",
            ),
            (
                "material.king.mg = 0\n",
                "line 1: unknown parameter 'material.king.mg'",
            ),
            ("tempo = ten\n", "line 1: bad value 'ten' for 'tempo'"),
            ("tempo = 1.5\n", "line 1: bad value '1.5'"),
            ("tempo =\n", "line 1: bad value ''"),
            ("tempo = 99999999999\n", "line 1: bad value '99999999999'"),
            (
                "tempo = 1\n\ntempo = 2\n",
                "line 3: 'tempo' given twice (first on line 1)",
            ),
            (
                "# ok\ntempo 5\n",
                "line 2: expected 'name = value', got 'tempo 5'",
            ),
            (
                "pawn_center = 5\n",
                "line 1: unknown parameter 'pawn_center'",
            ),
        ] {
            let err = Params::from_text(text).unwrap_err();
            assert!(err.contains(says), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_table_reads_its_mirror_and_its_rows_as_drawn() {
        let mut rows = [[(0, 0); 5]; 10];
        rows[4][2] = (7, -7); // c5: the fifth row from Black's side is rank 5
        let t: Pst<3> = Pst::from_rows(rows);
        assert_eq!(t.at(Square::parse("c5").unwrap()), Score(7, -7));
        assert_eq!(t.at(Square::parse("g5").unwrap()), Score(7, -7));
        assert_eq!(t.at(Square::parse("c4").unwrap()), Score(0, 0));
        let p = Params {
            pst_horse: t,
            ..Params::default()
        };
        let sq = Square::parse("g5").unwrap();
        assert_eq!(p.pst_offset(PieceKind::Horse, sq), Score(7, -7));
        assert_eq!(
            p.pst_offset(PieceKind::Rook, sq),
            Params::default().pst_rook.at(sq)
        );
    }

    #[test]
    fn the_defaults_are_distilled_txt() {
        // distilled.txt names every number, in order, with the built-in value.
        let file = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/eval-params/distilled.txt"
        ));
        assert_eq!(data_lines(file), data_lines(&Params::default().to_text()));
        assert_eq!(Params::from_text(file), Ok(Params::default()));
        // The earlier sets name every number too, so they read the same over any defaults.
        for earlier in [
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scripts/eval-params/handmade.txt"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scripts/eval-params/tuned.txt"
            )),
        ] {
            assert_eq!(data_lines(earlier).len(), Params::names().len());
            assert!(Params::from_text(earlier).is_ok());
        }
    }

    #[test]
    fn load_names_the_file() {
        let err = Params::load("/nonexistent/params.txt").unwrap_err();
        assert!(
            err.starts_with("cannot read '/nonexistent/params.txt'"),
            "{err}"
        );
    }
}
