//! How every subcommand reads its arguments: [`Args`], a small typed reader over the words of
//! a command line, and [`number`] with its range-checked forms for values found inside words
//! (`elo0=5`, a positional depth).
//!
//! - A flag is `-name` or `--name`: one dash or two, the same flag. `chuhan match` is written
//!   in cutechess-cli's style (`-engine cmd=… -tc 10+0.1`), the other subcommands GNU's
//!   (`--out DIR`); every subcommand takes both.
//! - A flag's value is the next word, whatever it looks like (`--balance -5`).
//! - Any other word is positional, `-` and `-5` included (a flag starts with a letter).
//! - `-h`, `-help` or `--help` anywhere asks for the usage: the error [`Help`], which the
//!   binary prints to stdout with exit status 0. Every other mistake is an error naming the
//!   flag and the word; a missing value or an unknown flag adds the usage.
//!
//! Why not `clap`: `chuhan match` keeps cutechess-cli's single-dash long flags and its repeated
//! `-engine key=value …` groups, which clap does not model, so it would stay hand-parsed beside
//! a second way; and the rest needs only what this file holds.

use anyhow::{anyhow, Result};
use std::fmt::{self, Display};
use std::ops::{Bound, RangeBounds};
use std::str::FromStr;

/// Asked for the usage (`--help`): not a failure. Its text is the usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Help(pub &'static str);

impl Display for Help {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for Help {}

/// One word of a command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg<'a> {
    /// `-name` or `--name`: the name, without its dashes.
    Flag(&'a str),
    /// Any other word.
    Word(&'a str),
}

/// A flag's name (without dashes) if `word` is a flag.
fn flag_name(word: &str) -> Option<&str> {
    let name = word.strip_prefix("--").or_else(|| word.strip_prefix('-'))?;
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        .then_some(name)
}

/// A reader of a subcommand's words, front to back.
pub struct Args<'a> {
    words: &'a [String],
    at: usize,
    usage: &'static str,
    /// The flag read last, as written: the name a value's message gives.
    flag: &'a str,
}

impl<'a> Args<'a> {
    /// A reader of `words`; `usage` is the subcommand's usage text.
    pub fn new(words: &'a [String], usage: &'static str) -> Args<'a> {
        Args {
            words,
            at: 0,
            usage,
            flag: "",
        }
    }

    /// The next word, or `None` at the end; [`Help`] for `-h`, `-help`, `--help`.
    // Not an `Iterator`: a word can be an error (`--help`), and values are read in between.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Arg<'a>>> {
        let Some(word) = self.words.get(self.at) else {
            return Ok(None);
        };
        self.at += 1;
        Ok(Some(match flag_name(word) {
            Some("h" | "help") => return Err(Help(self.usage).into()),
            Some(name) => {
                self.flag = word;
                Arg::Flag(name)
            }
            None => Arg::Word(word),
        }))
    }

    /// Every remaining word, all positional (a flag among them is an error).
    pub fn words(&mut self) -> Result<Vec<&'a str>> {
        let mut words = Vec::new();
        while let Some(arg) = self.next()? {
            match arg {
                Arg::Word(w) => words.push(w),
                Arg::Flag(_) => return Err(self.unknown()),
            }
        }
        Ok(words)
    }

    /// The words up to the next flag (`-engine cmd=a name=b -tc …` → `cmd=a`, `name=b`).
    pub fn group(&mut self) -> Vec<&'a str> {
        let start = self.at;
        while self
            .words
            .get(self.at)
            .is_some_and(|w| flag_name(w).is_none())
        {
            self.at += 1;
        }
        self.words[start..self.at]
            .iter()
            .map(String::as_str)
            .collect()
    }

    /// The value of the flag just read: the next word.
    pub fn value(&mut self) -> Result<&'a str> {
        let v = self
            .words
            .get(self.at)
            .ok_or_else(|| self.fail(format!("{} needs a value", self.flag)))?;
        self.at += 1;
        Ok(v)
    }

    /// The value of the flag just read, as a number (or any `FromStr` type).
    pub fn number<T: FromStr>(&mut self) -> Result<T> {
        let v = self.value()?;
        number(self.flag, v)
    }

    /// The value of the flag just read, as a number within `range`.
    pub fn number_in<T, R>(&mut self, range: R) -> Result<T>
    where
        T: FromStr + PartialOrd + Display,
        R: RangeBounds<T>,
    {
        let v = self.value()?;
        number_in(self.flag, v, range)
    }

    /// The value of the flag just read, as a number that passes `ok`, `expected` saying which.
    pub fn number_where<T: FromStr>(
        &mut self,
        expected: &str,
        ok: impl Fn(&T) -> bool,
    ) -> Result<T> {
        let v = self.value()?;
        number_where(self.flag, v, expected, ok)
    }

    /// The error for the flag just read when the subcommand does not know it.
    pub fn unknown(&self) -> anyhow::Error {
        self.fail(format!("unknown option '{}'", self.flag))
    }

    /// An error about the command line as a whole: `message`, then the usage.
    pub fn fail(&self, message: impl Display) -> anyhow::Error {
        anyhow!("{message}\n{}", self.usage)
    }
}

/// `text` as a number (or any `FromStr` type); `name` says what it is in the message.
pub fn number<T: FromStr>(name: &str, text: &str) -> Result<T> {
    text.parse()
        .map_err(|_| anyhow!("bad {name} '{text}' (expected a number)"))
}

/// `text` as a number within `range` (`1..=64`, `1..`, `0.0..1.0`).
pub fn number_in<T, R>(name: &str, text: &str, range: R) -> Result<T>
where
    T: FromStr + PartialOrd + Display,
    R: RangeBounds<T>,
{
    let expected = describe(&range);
    number_where(name, text, &expected, |v| range.contains(v))
}

/// `text` as a number that passes `ok`; `expected` says which numbers do.
pub fn number_where<T: FromStr>(
    name: &str,
    text: &str,
    expected: &str,
    ok: impl Fn(&T) -> bool,
) -> Result<T> {
    match text.parse() {
        Ok(v) if ok(&v) => Ok(v),
        _ => Err(anyhow!("bad {name} '{text}' (expected {expected})")),
    }
}

/// A range in words: `1 to 64`, `at least 1`, `0 to under 1`.
fn describe<T: Display>(range: &impl RangeBounds<T>) -> String {
    use Bound::{Excluded, Included, Unbounded};
    match (range.start_bound(), range.end_bound()) {
        (Included(a), Included(b)) => format!("{a} to {b}"),
        (Included(a), Excluded(b)) => format!("{a} to under {b}"),
        (Included(a), Unbounded) => format!("at least {a}"),
        (Excluded(a), Included(b)) => format!("more than {a}, at most {b}"),
        (Excluded(a), Excluded(b)) => format!("more than {a}, under {b}"),
        (Excluded(a), Unbounded) => format!("more than {a}"),
        (Unbounded, Included(b)) => format!("at most {b}"),
        (Unbounded, Excluded(b)) => format!("under {b}"),
        (Unbounded, Unbounded) => "a number".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn flags_take_one_dash_or_two_and_values_any_word() {
        let w = words("--out x -games 3 --balance -5 file - -7");
        let mut a = Args::new(&w, "usage");
        assert_eq!(a.next().unwrap(), Some(Arg::Flag("out")));
        assert_eq!(a.value().unwrap(), "x");
        assert_eq!(a.next().unwrap(), Some(Arg::Flag("games")));
        assert_eq!(a.number_in::<u32, _>(1..).unwrap(), 3);
        assert_eq!(a.next().unwrap(), Some(Arg::Flag("balance")));
        assert_eq!(a.number::<i32>().unwrap(), -5);
        assert_eq!(a.words().unwrap(), ["file", "-", "-7"]);
        assert_eq!(a.next().unwrap(), None);
    }

    #[test]
    fn groups_end_at_the_next_flag() {
        let w = words("-engine cmd=a arg=-v -tc 1+0");
        let mut a = Args::new(&w, "usage");
        assert_eq!(a.next().unwrap(), Some(Arg::Flag("engine")));
        assert_eq!(a.group(), ["cmd=a", "arg=-v"]);
        assert_eq!(a.next().unwrap(), Some(Arg::Flag("tc")));
        assert_eq!(a.group(), ["1+0"]);
        assert!(a.group().is_empty());
    }

    #[test]
    fn help_is_asked_in_any_spelling() {
        for spelling in ["-h", "-help", "--help", "--h"] {
            let w = words(&format!("x {spelling}"));
            let mut a = Args::new(&w, "the usage");
            assert_eq!(a.next().unwrap(), Some(Arg::Word("x")));
            let e = a.next().unwrap_err();
            assert_eq!(e.downcast_ref::<Help>(), Some(&Help("the usage")));
        }
    }

    #[test]
    fn mistakes_name_the_flag_and_the_word() {
        let w = words("--games two -depth 0 --seed");
        let mut a = Args::new(&w, "the usage");
        a.next().unwrap();
        let e = a.number_in::<u32, _>(1..).unwrap_err().to_string();
        assert_eq!(e, "bad --games 'two' (expected at least 1)");
        a.next().unwrap();
        let e = a.number_in::<u32, _>(1..=64).unwrap_err().to_string();
        assert_eq!(e, "bad -depth '0' (expected 1 to 64)");
        a.next().unwrap();
        let e = a.value().unwrap_err().to_string();
        assert_eq!(e, "--seed needs a value\nthe usage");
        assert_eq!(
            a.unknown().to_string(),
            "unknown option '--seed'\nthe usage"
        );
        let w = words("a --x");
        assert!(Args::new(&w, "u").words().is_err());
    }

    #[test]
    fn ranges_are_described_in_words() {
        let bad = |r: Result<f64>| r.unwrap_err().to_string();
        assert!(bad(number_in("f", "1", 0.0..1.0)).ends_with("(expected 0 to under 1)"));
        let excluded = (Bound::Excluded(0.0), Bound::Included(1.0));
        assert!(bad(number_in("f", "0", excluded)).ends_with("(expected more than 0, at most 1)"));
        assert!(bad(number_in("f", "9", ..=2.0)).ends_with("(expected at most 2)"));
        assert!(bad(number_in("f", "x", ..)).ends_with("(expected a number)"));
        assert_eq!(number_in("f", "0.5", 0.0..1.0).unwrap(), 0.5);
        let e = number_where("--lr", "inf", "a positive number", |v: &f32| v.is_finite());
        assert_eq!(
            e.unwrap_err().to_string(),
            "bad --lr 'inf' (expected a positive number)"
        );
    }
}
