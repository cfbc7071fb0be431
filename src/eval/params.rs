//! Every tunable number of the evaluation, declared once, and its text format.
//!
//! The `params!` list below is the only place a parameter is spelled out: from it come the
//! `Params` struct, its defaults (the built-in evaluation), and a visitor over the numbers by name
//! ([`Params::for_each`]) that the tuner goes through. A `Score` parameter has
//! two numbers, `NAME.mg` and `NAME.eg`; an array's elements are named by key
//! (`material.horse.mg`, `mobility.rook.eg`); an `i32` is one number, `NAME`.

use super::Score;

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

/// Declares `Params` from a list of `/// doc` + `name: Type = default`. A default is an integer
/// literal (`i32`), `(mg, eg)` (`Score`), or `[key: default, …]` (an array, one key per element;
/// a `_` key is a fixed element that is not a parameter).
macro_rules! params {
    (@default [$($key:tt : $value:tt),* $(,)?]) => { [$(params!(@default $value)),*] };
    (@default ($mg:expr, $eg:expr)) => { Score($mg, $eg) };
    (@default $value:literal) => { $value };

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
        advisor: (120, 100),
        elephant: (120, 100),
        horse: (400, 450),
        rook: (950, 1000),
        cannon: (450, 420),
        pawn: (60, 90),
    ],
    /// Pawn bonus once across the river.
    pawn_crossed: Score = (60, 70),
    /// Pawn bonus per rank advanced beyond the river (up to the enemy palace).
    pawn_advance: Score = (15, 15),
    /// Pawn bonus for standing on the three palace files once across.
    pawn_center: Score = (20, 25),
    /// Penalty for a pawn that reached the enemy back rank.
    pawn_bottom: Score = (-60, -70),
    /// Horse centralisation per step toward the centre.
    horse_center: Score = (8, 10),
    /// Horse bonus per rank advanced.
    horse_advance: Score = (6, 4),
    /// Rook bonus per rank advanced.
    rook_advance: Score = (4, 2),
    /// Cannon bonus on the central file.
    cannon_center: Score = (30, 5),
    /// Mobility per reachable point.
    mobility: [Score; 3] = [rook: (4, 5), horse: (8, 8), cannon: (2, 2)],
    /// Penalty per missing advisor or elephant, per enemy attacking piece across the river.
    missing_defender: Score = (-12, -6),
    /// Rook on an open file toward the enemy king's palace.
    rook_open_file: Score = (25, 15),
    /// Cannon aimed at the enemy king with exactly one screen.
    cannon_pin_king: Score = (35, 15),
    /// Enemy horse within two steps of the king's palace.
    horse_near_palace: Score = (20, 15),
    /// Two crossed pawns side by side.
    pawn_connected: Score = (15, 25),
    /// Tempo for the side to move.
    tempo: i32 = 10,
}

impl Params {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_declaration() {
        let names = Params::names();
        assert_eq!(names.len(), 45, "the king's material is not a parameter");
        assert_eq!(names[0], "material.advisor.mg");
        assert_eq!(names[7], "material.rook.eg");
        assert!(names.contains(&"mobility.cannon.eg".to_string()));
        assert_eq!(names.last().unwrap(), "tempo");
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
    }
}
