//! The documentation checked against what it describes: the README's option table against the
//! option table in the code (`protocol::options::TABLE`), the data files of measured ideas
//! (`docs/screens.tsv`, `docs/series.tsv`) row by row, every relative link of the README and
//! `docs/` (file and heading) and every repository path they name, and the README's length (a
//! front door, not a log).

use chuhan::protocol::options::{Kind, EMPTY, TABLE};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The markdown files the links are checked in: the README and everything in `docs/`.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

// ---- the option table -------------------------------------------------------------------

/// The README's header of the option table; its columns, in order.
const OPTION_HEADER: [&str; 6] = [
    "UCI name",
    "UCCI name",
    "type",
    "default",
    "range",
    "what it does",
];

/// A cell as the table writes it: backticks dropped, `—` (nothing) as an empty string, the
/// typographic minus as `-`.
fn cell(text: &str) -> String {
    let t = text.trim().replace('`', "").replace('\u{2212}', "-");
    if t == "—" {
        String::new()
    } else {
        t
    }
}

/// The cells of a markdown table row (no `|` inside a cell).
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(cell).collect()
}

/// One option as a row of the README's table: UCI name, UCCI name, type, default, range.
type OptionRow = [String; 5];

/// The rows of the README's option table, by the name the code shows (UCI, else UCCI).
fn readme_options(readme: &str) -> BTreeMap<String, OptionRow> {
    let mut lines = readme.lines().skip_while(|l| {
        !(l.starts_with('|') && cells(l).iter().map(String::as_str).eq(OPTION_HEADER))
    });
    assert!(
        lines.next().is_some(),
        "README: no option table with the header {OPTION_HEADER:?}"
    );
    let separator = lines.next().unwrap_or_default();
    assert!(
        separator.starts_with("|---"),
        "README: the option table's second line: {separator}"
    );
    let mut rows = BTreeMap::new();
    for line in lines.take_while(|l| l.starts_with('|')) {
        let c = cells(line);
        assert_eq!(
            c.len(),
            OPTION_HEADER.len(),
            "README option row has {} cells: {line}",
            c.len()
        );
        let name = if c[0].is_empty() { &c[1] } else { &c[0] };
        assert!(!name.is_empty(), "README option row without a name: {line}");
        let row = [
            c[0].clone(),
            c[1].clone(),
            c[2].clone(),
            c[3].clone(),
            c[4].clone(),
        ];
        assert!(
            rows.insert(name.clone(), row).is_none(),
            "README lists {name} twice"
        );
    }
    rows
}

/// The announced rows of the code's table, written as the README writes them.
fn code_options() -> BTreeMap<String, OptionRow> {
    let mut rows = BTreeMap::new();
    for spec in TABLE.iter().filter(|s| s.uci.is_some() || s.ucci.is_some()) {
        let (kind, default, range) = match spec.kind {
            Kind::Spin {
                default, min, max, ..
            } => ("spin", default.to_string(), format!("{min}..{max}")),
            Kind::Check { default, .. } => ("check", default.to_string(), String::new()),
            Kind::Button { .. } => ("button", String::new(), String::new()),
            Kind::Text { default, .. } => {
                let shown = if default.is_empty() { EMPTY } else { default };
                ("string", shown.to_string(), String::new())
            }
            Kind::Combo { default, vars, .. } => ("combo", default.to_string(), vars.join(", ")),
        };
        let row = [
            spec.uci.unwrap_or_default().to_string(),
            spec.ucci.unwrap_or_default().to_string(),
            kind.to_string(),
            default,
            range,
        ];
        rows.insert(spec.name().to_string(), row);
    }
    rows
}

/// Every way two option tables differ, one line each.
fn option_differences(
    readme: &BTreeMap<String, OptionRow>,
    code: &BTreeMap<String, OptionRow>,
) -> Vec<String> {
    const COLUMNS: [&str; 5] = ["UCI name", "UCCI name", "type", "default", "range"];
    let mut out = Vec::new();
    for (name, want) in code {
        match readme.get(name) {
            None => out.push(format!(
                "{name}: declared in options.rs, missing from the README"
            )),
            Some(got) => {
                for (i, column) in COLUMNS.iter().enumerate() {
                    if got[i] != want[i] {
                        out.push(format!(
                            "{name}: {column} is '{}' in the README, '{}' in options.rs",
                            got[i], want[i]
                        ));
                    }
                }
            }
        }
    }
    for name in readme.keys().filter(|n| !code.contains_key(*n)) {
        out.push(format!(
            "{name}: in the README, not announced by options.rs"
        ));
    }
    out
}

#[test]
fn readme_option_table_matches_the_code() {
    let readme = readme_options(&read(&root().join("README.md")));
    let differences = option_differences(&readme, &code_options());
    assert!(
        differences.is_empty(),
        "the README's option table differs from src/protocol/options.rs:\n  {}",
        differences.join("\n  ")
    );
}

#[test]
fn the_option_check_sees_a_drift() {
    // The comparison itself must catch a changed default, range, name or a missing row.
    let code = code_options();
    let mut readme = code.clone();
    assert!(option_differences(&readme, &code).is_empty());
    readme.get_mut("Hash").unwrap()[3] = "32".into();
    readme.get_mut("Contempt").unwrap()[4] = "-400..400".into();
    readme.get_mut("Repetition Rule").unwrap()[1] = "rules".into();
    readme.remove("Threads");
    readme.insert("Frobnicate".into(), Default::default());
    let d = option_differences(&readme, &code);
    assert_eq!(d.len(), 5, "{d:#?}");
}

// ---- the data files of measured ideas -----------------------------------------------------

const SCREEN_COLUMNS: [&str; 12] = [
    "idea", "commit", "eval", "control", "games", "W", "D", "L", "elo", "error", "kept", "note",
];
const SERIES_COLUMNS: [&str; 11] = [
    "idea", "commit", "eval", "control", "games", "W", "D", "L", "elo", "error", "note",
];

/// What is wrong with one row of a measurement file, given its header; empty when nothing.
fn row_problems(columns: &[&str], fields: &[&str]) -> Vec<String> {
    if fields.len() != columns.len() {
        return vec![format!("{} fields, not {}", fields.len(), columns.len())];
    }
    let get = |name: &str| fields[columns.iter().position(|c| *c == name).unwrap()];
    let mut out = Vec::new();
    if get("idea").trim().is_empty() {
        out.push("no idea".to_string());
    }
    let commit = get("commit");
    if !(commit.is_empty()
        || (7..=40).contains(&commit.len()) && commit.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        out.push(format!("commit '{commit}' is not a commit hash"));
    }
    if !["network", "classical", "classical-handmade"].contains(&get("eval")) {
        out.push(format!("eval '{}'", get("eval")));
    }
    let control = get("control");
    let clock = control.split_once('+').is_some_and(|(base, inc)| {
        base.parse::<f64>().is_ok_and(|b| b > 0.0) && inc.parse::<f64>().is_ok_and(|i| i >= 0.0)
    });
    let nodes = control
        .strip_prefix("nodes=")
        .is_some_and(|n| n.parse::<u64>().is_ok_and(|n| n > 0));
    if !(clock || nodes) {
        out.push(format!(
            "control '{control}' is neither BASE+INC nor nodes=N"
        ));
    }
    let games = get("games").parse::<u64>().ok().filter(|&g| g > 0);
    if games.is_none() {
        out.push(format!("games '{}' is not a positive number", get("games")));
    }
    let wdl = [get("W"), get("D"), get("L")];
    if wdl.iter().any(|v| !v.is_empty()) {
        let counts: Vec<Option<u64>> = wdl.iter().map(|v| v.parse().ok()).collect();
        if counts.iter().any(Option::is_none) {
            out.push(format!("W/D/L {wdl:?} are not all numbers"));
        } else if let Some(g) = games {
            let sum: u64 = counts.iter().flatten().sum();
            if sum != g {
                out.push(format!("W + D + L = {sum}, games = {g}"));
            }
        }
    }
    if get("elo").parse::<f64>().is_err() {
        out.push(format!("elo '{}' is not a number", get("elo")));
    }
    if !get("error").parse::<f64>().is_ok_and(|e| e >= 0.0) {
        out.push(format!("error '{}' is not a number ≥ 0", get("error")));
    }
    if columns.contains(&"kept") && !["yes", "no"].contains(&get("kept")) {
        out.push(format!("kept '{}' is not yes or no", get("kept")));
    }
    out
}

/// Every problem of a measurement file, each with its line number.
fn file_problems(text: &str, columns: &[&str]) -> Vec<String> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    if header != columns {
        return vec![format!("header {header:?}, expected {columns:?}")];
    }
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        for p in row_problems(columns, &fields) {
            out.push(format!("line {}: {p}", i + 2));
        }
    }
    out
}

#[test]
fn measurement_files_are_well_formed() {
    for (file, columns, least) in [
        ("docs/screens.tsv", &SCREEN_COLUMNS[..], 50),
        ("docs/series.tsv", &SERIES_COLUMNS[..], 10),
    ] {
        let text = read(&root().join(file));
        let rows = text.lines().count() - 1;
        assert!(rows >= least, "{file}: {rows} rows");
        let problems = file_problems(&text, columns);
        assert!(problems.is_empty(), "{file}:\n  {}", problems.join("\n  "));
    }
}

#[test]
fn the_row_check_sees_bad_rows() {
    let header = SCREEN_COLUMNS.join("\t");
    let good = "an idea\tabc1234\tnetwork\t2+0.02\t10\t5\t3\t2\t+70.0\t9.5\tyes\tnote";
    assert!(file_problems(&format!("{header}\n{good}\n"), &SCREEN_COLUMNS).is_empty());
    for bad in [
        "an idea\tabc1234\tnetwork\t2+0.02\t10\t5\t3\t2\t+70.0\t9.5\tyes",
        "an idea\tabc1234\tnetwork\t2+0.02\t10\t5\t3\t3\t+70.0\t9.5\tyes\tnote",
        "an idea\tabc1234\tnetwork\t2+0.02\tten\t5\t3\t2\t+70.0\t9.5\tyes\tnote",
        "an idea\tabc1234\tnetwork\t2+0.02\t10\t5\t3\t2\t+70.0 ± 9.5\t\tyes\tnote",
        "an idea\tabc1234\tnetwork\t2 s\t10\t5\t3\t2\t+70.0\t9.5\tyes\tnote",
        "an idea\tnot-a-hash\tnetwork\t2+0.02\t10\t5\t3\t2\t+70.0\t9.5\tyes\tnote",
        "an idea\tabc1234\tnetwork\t2+0.02\t10\t5\t3\t2\t+70.0\t9.5\tmaybe\tnote",
    ] {
        let problems = file_problems(&format!("{header}\n{bad}\n"), &SCREEN_COLUMNS);
        assert!(!problems.is_empty(), "not caught: {bad}");
    }
}

// ---- links ------------------------------------------------------------------------------

/// GitHub's anchor for a heading: lower case, punctuation dropped (`-` and `_` kept), spaces
/// as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .flat_map(char::to_lowercase)
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The lines of a markdown file outside fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// The anchors of a markdown file's headings (a repeated heading gets `-1`, `-2`, …).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeMap::<String, usize>::new();
    let mut out = BTreeSet::new();
    for line in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let base = slug(&line[hashes..]);
            let n = seen.entry(base.clone()).or_default();
            out.insert(if *n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            });
            *n += 1;
        }
    }
    out
}

/// The targets of a markdown file's inline links `[text](target)`, outside code.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose_lines(text) {
        // Code spans may hold `](`; drop them first.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                out.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    out
}

#[test]
fn links_in_the_readme_and_docs_resolve() {
    let mut broken = Vec::new();
    for file in markdown_files() {
        let text = read(&file);
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let name = file.strip_prefix(root()).unwrap().display().to_string();
            if !resolved.exists() {
                broken.push(format!("{name}: {target}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                let is_markdown = resolved.extension().is_some_and(|x| x == "md");
                if !is_markdown || !anchors(&read(&resolved)).contains(anchor) {
                    broken.push(format!("{name}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "broken links:\n  {}",
        broken.join("\n  ")
    );
}

/// The folders of the repository a path written in the docs starts with.
const TREE: [&str; 9] = [
    "src/",
    "tests/",
    "scripts/",
    "book/",
    "nets/",
    "examples/",
    "benches/",
    "docs/",
    ".ci/",
];

#[test]
fn paths_named_in_the_readme_and_docs_exist() {
    // A file moved in the code must move in the docs too: every path in a code span that
    // starts in one of the repository's folders names a file or folder that exists (an
    // example may be named without its `.rs`).
    let mut missing = Vec::new();
    for file in markdown_files() {
        let text = read(&file);
        let spans = prose_lines(&text)
            .into_iter()
            .flat_map(|line| line.split('`').skip(1).step_by(2));
        for span in spans.filter(|s| TREE.iter().any(|t| s.starts_with(t))) {
            if span.contains(char::is_whitespace) || span.contains('*') {
                continue;
            }
            let path = root().join(span);
            if !path.exists() && !path.with_extension("rs").exists() {
                let name = file.strip_prefix(root()).unwrap().display().to_string();
                missing.push(format!("{name}: `{span}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(
        slug(" Building books: `chuhan book`"),
        "building-books-chuhan-book"
    );
    assert_eq!(
        slug("Round 1: networks from the classical evaluation's games"),
        "round-1-networks-from-the-classical-evaluations-games"
    );
    assert_eq!(slug("Scores, mates, draws"), "scores-mates-draws");
}

#[test]
fn the_readme_is_a_front_door() {
    let lines = read(&root().join("README.md")).lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines; the rest belongs in docs/"
    );
}

/// The README's header of the strength-level table.
const LEVEL_HEADER: &str = "| level | Elo | knob | nodes a move | temperature |";

#[test]
fn the_readme_level_table_is_the_codes() {
    use chuhan::engine::StrengthRequest;
    use chuhan::search::strength::MAX_ELO;
    let readme = read(&root().join("README.md"));
    let start = readme
        .find(LEVEL_HEADER)
        .expect("README: no strength-level table");
    let rows: Vec<Vec<&str>> = readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), 21, "levels 0..=20");
    for (level, row) in rows.iter().enumerate() {
        let s = StrengthRequest {
            skill_level: level as u32,
            ..StrengthRequest::FULL
        };
        let want = match (s.knob(), s.node_budget()) {
            (Some(knob), Some(nodes)) => vec![
                level.to_string(),
                format!("{:.0}", s.target_elo()),
                format!("{knob:.2}"),
                nodes.to_string(),
                format!("{:.0}", s.temperature()),
            ],
            _ => vec![
                level.to_string(),
                MAX_ELO.to_string(),
                "full strength".into(),
                "the clock's".into(),
                "none".into(),
            ],
        };
        assert_eq!(row, &want, "README level table, level {level}");
    }
}
