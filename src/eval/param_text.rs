//! The text of parameter files, the one parser for both kinds (the classical evaluation's
//! numbers, `eval::Params`, and the search's, `params::SearchParams`): one `name = value` per
//! line, integers only; `#` starts a comment and blank lines are skipped. An unknown name, a bad
//! value or a name given twice is an error naming the line.

/// The values `text` gives, one slot per name of `names` (in that order): `None` where the
/// text leaves a name out.
pub fn read_values(text: &str, names: &[&str]) -> Result<Vec<Option<i32>>, String> {
    let mut given: Vec<Option<(i32, usize)>> = vec![None; names.len()];
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (name, value) = line
            .split_once('=')
            .ok_or_else(|| format!("line {n}: expected 'name = value', got '{line}'"))?;
        let (name, value) = (name.trim(), value.trim());
        let at = names
            .iter()
            .position(|&x| x == name)
            .ok_or_else(|| format!("line {n}: unknown parameter '{name}'"))?;
        if let Some((_, first)) = given[at] {
            return Err(format!(
                "line {n}: '{name}' given twice (first on line {first})"
            ));
        }
        let value = value.parse().map_err(|_| {
            format!("line {n}: bad value '{value}' for '{name}' (expected an integer)")
        })?;
        given[at] = Some((value, n));
    }
    Ok(given.into_iter().map(|g| g.map(|(v, _)| v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_land_in_their_names_slots_and_the_rest_stay_empty() {
        let names = ["a", "b.c", "d"];
        let text = "# comment\n\n  d = -7   # trailing\nb.c=3\n";
        assert_eq!(read_values(text, &names), Ok(vec![None, Some(3), Some(-7)]));
        assert_eq!(read_values("", &names), Ok(vec![None; 3]));
    }

    #[test]
    fn bad_lines_are_errors_naming_the_line() {
        let names = ["a", "b"];
        for (text, says) in [
            ("a = 1\nz = 2\n", "line 2: unknown parameter 'z'"),
            ("a = x\n", "line 1: bad value 'x' for 'a'"),
            ("a = 99999999999\n", "line 1: bad value '99999999999'"),
            (
                "a = 1\n\na = 2\n",
                "line 3: 'a' given twice (first on line 1)",
            ),
            ("# ok\nb 5\n", "line 2: expected 'name = value', got 'b 5'"),
        ] {
            let err = read_values(text, &names).unwrap_err();
            assert!(err.contains(says), "{text:?}: {err}");
        }
    }
}
