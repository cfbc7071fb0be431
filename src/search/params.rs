//! The search's tunable numbers (pruning margins, reductions, history scales), each declared
//! once below with its default, the range it may take and the step a tuner (`chuhan spsa`)
//! perturbs it by. The defaults are the search as shipped; a parameter file (`SearchParams`
//! option) replaces some of them, in the text format of `param_text`. Time management is not
//! here: a tuner playing games by node counts could not see it.

use crate::eval::param_text::read_values;

/// One tunable number: its name, value as shipped, inclusive range, and tuning step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// Name in parameter files, as the field.
    pub name: &'static str,
    /// The built-in value.
    pub default: i32,
    /// Smallest value allowed.
    pub min: i32,
    /// Largest value allowed.
    pub max: i32,
    /// How far a tuner moves it to probe (its perturbation at the end of a run).
    pub step: i32,
}

/// Declares `SearchParams` from `/// doc` + `name = default, min..=max, step s;` lines.
macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $name:ident = $default:literal, $min:literal..=$max:literal,
        step $step:literal;)*) => {
        /// The search's tunable numbers (declared once, in `search/params.rs`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $name: i32,)*
        }

        impl SearchParams {
            /// The search as shipped.
            pub const DEFAULT: SearchParams = SearchParams { $($name: $default,)* };

            /// Every parameter, in declaration order.
            pub const SPECS: &'static [ParamSpec] = &[
                $(ParamSpec { name: stringify!($name), default: $default, min: $min,
                    max: $max, step: $step },)*
            ];

            /// The values, in `SPECS` order.
            pub fn values(&self) -> Vec<i32> {
                vec![$(self.$name),*]
            }

            /// Mutable references to the values, in `SPECS` order.
            fn values_mut(&mut self) -> Vec<&mut i32> {
                vec![$(&mut self.$name),*]
            }
        }
    };
}

search_params! {
    /// Reverse futility pruning up to this depth.
    rfp_depth = 7, 0..=16, step 1;
    /// Reverse futility margin per ply of depth (one ply less when improving).
    rfp_margin = 91, 10..=400, step 8;
    /// Null move from this depth.
    null_min_depth = 4, 1..=10, step 1;
    /// Null-move reduction: this many plies ...
    null_base = 3, 1..=8, step 1;
    /// ... plus one per this many plies of depth ...
    null_depth_div = 5, 1..=16, step 1;
    /// ... plus one per this much of the static evaluation over beta (at most `null_eval_max`).
    null_eval_div = 185, 20..=1000, step 20;
    /// Quiet moves are pruned (late-move, futility) at this depth and below.
    prune_depth = 7, 0..=16, step 1;
    /// Late-move pruning keeps (this + depth²) quiet moves when improving, half when not.
    lmp_base = 4, 0..=20, step 1;
    /// Futility pruning: static evaluation + this + `futility_margin` × depth ≤ alpha.
    futility_base = 99, 0..=500, step 10;
    /// Futility margin per ply of depth.
    futility_margin = 83, 10..=400, step 8;
    /// History pruning at this depth and below ...
    history_prune_depth = 4, 0..=16, step 1;
    /// ... of a quiet move whose history is below −this × depth.
    history_prune_margin = 520, 50..=4000, step 50;
    /// Late-move reduction table: (this + ln depth × ln move number × 100 / `lmr_divisor`) / 100.
    lmr_base = 80, 0..=300, step 8;
    /// See `lmr_base`.
    lmr_divisor = 212, 50..=800, step 12;
    /// Late-move reduction one ply less per this much quiet history (more when negative).
    lmr_history_div = 12144, 1024..=65536, step 1024;
    /// After a reduced move beats alpha, its full-depth search is a ply deeper when it beat the
    /// best score by more than this ...
    research_deeper_base = 55, 0..=400, step 6;
    /// ... plus this per ply of depth ...
    research_deeper_per_depth = 2, 0..=40, step 1;
    /// ... and a ply shallower when by less than this.
    research_shallower = 9, 0..=200, step 3;
    /// Aspiration window half-width at the start (from depth 5).
    aspiration_delta = 25, 1..=400, step 3;
    /// Quiescence delta pruning: skip a capture when even its victim and this much cannot
    /// reach alpha.
    qsearch_delta = 172, 0..=1000, step 15;
    /// History bonus of a cut-off: this × depth² ...
    history_bonus_scale = 14, 1..=256, step 2;
    /// ... up to this.
    history_bonus_max = 3585, 100..=16384, step 250;
    // Appended, not grouped, so earlier `chuhan spsa` runs keep their parameters' places.
    /// Null-move reduction: the static evaluation's share (`null_eval_div`) adds at most this.
    null_eval_max = 3, 0..=8, step 1;
    /// A null move's cut-off is verified by a search without null moves from this depth on, in
    /// any position ...
    null_verify_depth = 12, 1..=32, step 1;
    /// ... and at every depth in a sparse ending: at most this many pieces on the board, kings
    /// included (zugzwang is common there).
    sparse_pieces = 12, 2..=32, step 1;
    /// Internal iterative reduction: a ply less at a PV or cut node without a hash move from
    /// this depth on.
    iir_depth = 6, 1..=16, step 1;
    /// Late-move reductions from this depth on.
    lmr_depth = 3, 1..=10, step 1;
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

impl SearchParams {
    /// The text format: one `name = value` a line, in declaration order.
    pub fn to_text(&self) -> String {
        SearchParams::SPECS
            .iter()
            .zip(self.values())
            .map(|(spec, v)| format!("{} = {v}\n", spec.name))
            .collect()
    }

    /// Read the text format over the defaults (a name left out keeps its value). Errors name
    /// the line, or the parameter whose value is out of its range.
    pub fn from_text(text: &str) -> Result<SearchParams, String> {
        let names: Vec<&str> = SearchParams::SPECS.iter().map(|s| s.name).collect();
        let given = read_values(text, &names)?;
        let mut values = SearchParams::DEFAULT.values();
        for (v, g) in values.iter_mut().zip(given) {
            if let Some(g) = g {
                *v = g;
            }
        }
        SearchParams::from_values(&values)
    }

    /// The parameters with these values (in `SPECS` order); an error names the first one out of
    /// its range.
    pub fn from_values(values: &[i32]) -> Result<SearchParams, String> {
        if values.len() != SearchParams::SPECS.len() {
            return Err(format!(
                "{} values for {} parameters",
                values.len(),
                SearchParams::SPECS.len()
            ));
        }
        let mut p = SearchParams::DEFAULT;
        for ((slot, &v), spec) in p
            .values_mut()
            .into_iter()
            .zip(values)
            .zip(SearchParams::SPECS)
        {
            if !(spec.min..=spec.max).contains(&v) {
                return Err(format!(
                    "'{}' = {v} is out of its range {}..={}",
                    spec.name, spec.min, spec.max
                ));
            }
            *slot = v;
        }
        Ok(p)
    }

    /// The declaration of the parameter called `name`, with its place in `SPECS`.
    pub fn spec(name: &str) -> Option<(usize, &'static ParamSpec)> {
        SearchParams::SPECS
            .iter()
            .enumerate()
            .find(|(_, s)| s.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_consistent() {
        let specs = SearchParams::SPECS;
        assert_eq!(specs.len(), SearchParams::DEFAULT.values().len());
        for (spec, v) in specs.iter().zip(SearchParams::DEFAULT.values()) {
            assert_eq!(spec.default, v, "{}", spec.name);
            assert!(spec.min <= v && v <= spec.max, "{}", spec.name);
            assert!(
                spec.step > 0 && spec.step <= spec.max - spec.min,
                "{}",
                spec.name
            );
        }
        let mut names: Vec<&str> = specs.iter().map(|s| s.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), specs.len());
        // Divisors can never be zero, whatever a file says.
        for name in [
            "null_depth_div",
            "null_eval_div",
            "lmr_divisor",
            "lmr_history_div",
        ] {
            assert!(SearchParams::spec(name).unwrap().1.min > 0, "{name}");
        }
    }

    #[test]
    fn text_round_trips_and_each_name_reaches_its_field() {
        let p = SearchParams::DEFAULT;
        assert_eq!(SearchParams::from_text(&p.to_text()), Ok(p));
        assert_eq!(SearchParams::from_text(""), Ok(p));
        // Every value moved by one within its range: each name lands on its own field.
        let moved: Vec<i32> = SearchParams::SPECS
            .iter()
            .map(|s| {
                if s.default < s.max {
                    s.default + 1
                } else {
                    s.default - 1
                }
            })
            .collect();
        let q = SearchParams::from_values(&moved).unwrap();
        assert_eq!(q.values(), moved);
        assert_eq!(SearchParams::from_text(&q.to_text()), Ok(q));
        let r = SearchParams::from_text("rfp_margin = 120\n# x\nlmr_divisor=300").unwrap();
        assert_eq!((r.rfp_margin, r.lmr_divisor, r.null_base), (120, 300, 3));
    }

    #[test]
    fn out_of_range_and_bad_text_are_errors() {
        for (text, says) in [
            (
                "lmr_history_div = 0\n",
                "'lmr_history_div' = 0 is out of its range",
            ),
            (
                "rfp_margin = -5\n",
                "'rfp_margin' = -5 is out of its range 10..=400",
            ),
            ("futility = 3\n", "line 1: unknown parameter 'futility'"),
            ("rfp_depth = 2.5\n", "line 1: bad value '2.5'"),
        ] {
            let err = SearchParams::from_text(text).unwrap_err();
            assert!(err.contains(says), "{text:?}: {err}");
        }
        assert!(SearchParams::from_values(&[1, 2]).is_err());
    }
}
