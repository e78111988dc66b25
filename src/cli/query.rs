//! A page's URL query as the window's command line: `?strategy=accumulator&compare=all`
//! is `--strategy accumulator --compare all`, checked by the same parser with the same
//! messages. A flag is given as `name`, `name=1` or `name=true` (`name=0` or `name=false`
//! leaves it out). What needs files or the desktop's window system is refused with what
//! the page does instead; `screenshot=1` asks for the last frame as an image on the page,
//! `record=NAME` records from the first frame into a download named NAME, and
//! `quit-after-replay` ends the run once a file opened on the page has replayed.
//! `no-config` does what it does natively: the settings kept in the browser's local
//! storage are neither read nor written for that visit.

use clap::{CommandFactory as _, FromArgMatches as _};

use super::Cli;
use crate::options::{KeepSettings, WindowOptions};
use crate::remembered::{Remembered, from_toml};

/// The name a page's screenshot is offered for download under.
pub const SCREENSHOT_NAME: &str = "timestep-lab.png";

/// The options a page refuses, each with what it does instead.
const NOT_ON_A_PAGE: [(&str, &str); 7] = [
    (
        "present-mode",
        "the browser decides how frames reach the screen (it waits for vsync)",
    ),
    ("frame-cap", "the browser paces a page's frames"),
    (
        "replay",
        "a page opens no files by name: open one with the page's file picker, or drop it on \
         the page",
    ),
    (
        "process",
        "a capture opened on a page replays the application with the most rows",
    ),
    (
        "swap-chain",
        "a capture opened on a page replays the swap chain with the most rows",
    ),
    ("replay-speed", "the panel sets a replay's speed"),
    ("resize-at", "the page sizes its canvas"),
];

/// A page's query, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageQuery {
    /// The window's command line (the program's name first), for [`Cli`]'s parser.
    pub arguments: Vec<String>,
    /// Whether `screenshot=1` asked for the last frame on the page.
    pub screenshot: bool,
    /// The name `record=NAME` downloads the recording under, when one is asked for.
    pub record: Option<String>,
    /// Whether `quit-after-replay` ends the run once a file opened on the page has
    /// replayed to its end.
    pub quit_after_replay: bool,
}

/// The window's command line for a page's query, given as its decoded `(name, value)`
/// pairs in order; or the message for a parameter the page does not take.
pub fn page_arguments(pairs: &[(String, String)]) -> Result<PageQuery, String> {
    let command = Cli::command();
    let mut arguments = vec!["timestep-lab".to_owned()];
    let (mut screenshot, mut record, mut quit_after_replay) = (false, None, false);
    for (name, value) in pairs {
        let shown = crate::text::escape(name);
        if name.is_empty() {
            return Err(format!(
                "={}: a parameter needs a name (name=value, as the option --name value)",
                crate::text::escape(value)
            ));
        }
        match name.as_str() {
            "screenshot" => {
                screenshot = switch(name, value)?;
                continue;
            }
            "quit-after-replay" => {
                quit_after_replay = switch(name, value)?;
                continue;
            }
            "record" => {
                record = Some(download_name(value)?);
                continue;
            }
            _ => {}
        }
        if let Some((_, why)) = NOT_ON_A_PAGE.iter().find(|(refused, _)| refused == name) {
            return Err(format!("{shown}: not on a page: {why}"));
        }
        let argument = command
            .get_arguments()
            .find(|argument| argument.get_long() == Some(name.as_str()));
        let takes_value = argument.is_some_and(|argument| argument.get_action().takes_values());
        let optional_value = argument
            .and_then(clap::Arg::get_num_args)
            .is_some_and(|count| count.min_values() == 0);
        if argument.is_some() && !takes_value {
            if switch(name, value)? {
                arguments.push(format!("--{name}"));
            }
        } else if optional_value && value.is_empty() {
            arguments.push(format!("--{name}"));
        } else {
            // An unknown name goes to the parser too, which names it as it names an
            // unknown option.
            arguments.push(format!("--{name}"));
            arguments.push(value.clone());
        }
    }
    Ok(PageQuery {
        arguments,
        screenshot,
        record,
        quit_after_replay,
    })
}

/// The window's options for a page's query (its decoded `(name, value)` pairs), over the
/// settings `kept` reads from the browser's local storage (the settings file's text, or
/// none on a first visit), with what reading them warned of; or the message that refuses
/// the query. `no-config` neither reads the kept settings (`kept` is not called) nor keeps
/// them when the run ends, as `--no-config` does with the settings file.
pub fn page_options(
    pairs: &[(String, String)],
    kept: impl FnOnce() -> Option<String>,
) -> Result<(WindowOptions, Vec<String>), String> {
    let query = page_arguments(pairs)?;
    let matches = Cli::command()
        .try_get_matches_from(&query.arguments)
        .map_err(|error| page_message(&error))?;
    let cli = Cli::from_arg_matches(&matches).map_err(|error| page_message(&error))?;
    if cli.command.is_some() {
        return Err("a page runs the window, not a command".to_owned());
    }
    let (mut options, warnings) = if cli.window.no_config {
        // As natively: the command line alone, and nothing kept when the run ends.
        let options = cli.window.options();
        (options.map_err(|error| format!("{error:#}"))?, Vec::new())
    } else {
        let kept = kept();
        let first_visit = kept.is_none();
        let (remembered, warnings) = match kept {
            Some(text) => from_toml(&text, "the settings kept in local storage"),
            None => (Remembered::default(), Vec::new()),
        };
        let mut options = cli
            .window
            .options_over(&matches, &remembered)
            .map_err(|error| format!("{error:#}"))?;
        options.keep_settings = KeepSettings::LocalStorage;
        options.tour_offer = first_visit && options.tour.is_none();
        (options, warnings)
    };
    if query.screenshot {
        if options.frames.is_none() {
            return Err("screenshot=1 shows the last frame of a run: give frames=N too".to_owned());
        }
        options.screenshot = Some(SCREENSHOT_NAME.into());
    }
    options.record = query.record.map(Into::into);
    options.quit_after_replay = query.quit_after_replay;
    Ok((options, warnings))
}

/// Longest name a download is offered under, in bytes (a file name's limit on most file
/// systems).
const MAX_DOWNLOAD_NAME: usize = 255;

/// `record=NAME`'s name, which the recording is downloaded under: a file name, not a path
/// (the browser chooses the folder), printable.
fn download_name(value: &str) -> Result<String, String> {
    let shown = crate::text::escape(value);
    let problem = if value.is_empty() {
        Some("needs the file name the recording is downloaded as (record=run.csv)")
    } else if value.contains(['/', '\\']) || value == "." || value == ".." {
        Some("is a file name, not a path: the browser chooses the folder")
    } else if value.chars().any(char::is_control) {
        Some("has control characters")
    } else if value.len() > MAX_DOWNLOAD_NAME {
        Some("is longer than a file name may be (255 bytes)")
    } else {
        None
    };
    match problem {
        Some(problem) => Err(format!("record={shown}: the name {problem}")),
        None => Ok(value.to_owned()),
    }
}

/// The parser's message for a page: its first paragraph (without the usage lines and the
/// pointer to `--help`, which a page has not), every line escaped.
pub fn page_message(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let first = text.split("\n\n").next().unwrap_or(&text).trim();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    crate::text::escape_lines(first)
}

/// A flag's value: on as `name`, `name=1` or `name=true`, off as `name=0` or `name=false`.
fn switch(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "" | "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(format!(
            "{}={}: not a switch (allowed: 1, true, 0, false, or the name alone)",
            crate::text::escape(name),
            crate::text::escape(value)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> Result<PageQuery, String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|&(name, value)| (name.to_owned(), value.to_owned()))
            .collect();
        page_arguments(&pairs)
    }

    fn arguments(pairs: &[(&str, &str)]) -> Vec<String> {
        query(pairs).expect("a query the page takes").arguments[1..].to_vec()
    }

    #[test]
    fn parameters_become_the_options_of_the_same_names() {
        assert_eq!(
            arguments(&[
                ("strategy", "accumulator"),
                ("compare", "all"),
                ("step-cost", "30"),
                ("hz", "50"),
            ]),
            [
                "--strategy",
                "accumulator",
                "--compare",
                "all",
                "--step-cost",
                "30",
                "--hz",
                "50"
            ]
        );
    }

    #[test]
    fn flags_are_on_by_name_one_or_true_and_off_by_zero_or_false() {
        assert_eq!(arguments(&[("paused", "")]), ["--paused"]);
        assert_eq!(arguments(&[("paused", "1")]), ["--paused"]);
        assert_eq!(arguments(&[("no-panel", "true")]), ["--no-panel"]);
        assert!(arguments(&[("paused", "0"), ("no-panel", "false")]).is_empty());
        let error = query(&[("paused", "yes")]).expect_err("not a switch");
        assert!(error.contains("paused=yes: not a switch"), "{error}");
    }

    #[test]
    fn a_parameter_without_a_name_is_refused() {
        let error = query(&[("", "x")]).expect_err("no name");
        assert!(error.starts_with("=x: a parameter needs a name"), "{error}");
    }

    #[test]
    fn the_tour_takes_a_chapter_or_none() {
        assert_eq!(arguments(&[("tour", "")]), ["--tour"]);
        assert_eq!(arguments(&[("tour", "6")]), ["--tour", "6"]);
    }

    #[test]
    fn a_screenshot_is_asked_for_by_switch() {
        let asked = query(&[("screenshot", "1"), ("frames", "60")]).expect("taken");
        assert!(asked.screenshot);
        assert_eq!(asked.arguments[1..], ["--frames", "60"]);
        assert!(!query(&[("screenshot", "0")]).expect("taken").screenshot);
    }

    #[test]
    fn a_recording_is_asked_for_by_the_name_it_is_downloaded_under() {
        let asked = query(&[("record", "run.csv"), ("frames", "60")]).expect("taken");
        assert_eq!(asked.record.as_deref(), Some("run.csv"));
        assert_eq!(asked.arguments[1..], ["--frames", "60"]);
        assert_eq!(query(&[]).expect("taken").record, None);
        for (value, problem) in [
            ("", "needs the file name"),
            ("a/b.csv", "not a path"),
            ("..\\b.csv", "not a path"),
            ("..", "not a path"),
            ("a\u{1b}[2J.csv", "control characters"),
        ] {
            let error = query(&[("record", value)]).expect_err(value);
            assert!(error.contains(problem), "{error}");
            assert!(!error.contains('\u{1b}'), "{error}");
        }
        let long = "x".repeat(MAX_DOWNLOAD_NAME + 1);
        assert!(query(&[("record", &long)]).is_err());
        assert!(query(&[("record", &long[1..])]).is_ok());
    }

    #[test]
    fn quitting_after_a_replay_is_a_switch() {
        assert!(
            query(&[("quit-after-replay", "")])
                .expect("taken")
                .quit_after_replay
        );
        assert!(
            !query(&[("quit-after-replay", "0")])
                .expect("taken")
                .quit_after_replay
        );
        assert!(query(&[("quit-after-replay", "yes")]).is_err());
    }

    #[test]
    fn what_needs_files_or_the_desktop_is_refused_with_what_the_page_does() {
        for (name, _) in NOT_ON_A_PAGE {
            let error = query(&[(name, "x")]).expect_err(name);
            assert!(
                error.starts_with(&format!("{name}: not on a page: ")),
                "{error}"
            );
            // Every refused name is an option of the window's: the list cannot go stale.
            assert!(
                Cli::command()
                    .get_arguments()
                    .any(|argument| argument.get_long() == Some(name)),
                "{name} is no option"
            );
        }
    }

    fn owned(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|&(name, value)| (name.to_owned(), value.to_owned()))
            .collect()
    }

    /// The settings file's text for settings at `rate_hz` Hz.
    fn kept_at(rate_hz: f64) -> String {
        let mut remembered = Remembered::default();
        remembered.settings.rate_hz = rate_hz;
        crate::remembered::to_toml(&remembered)
    }

    #[test]
    fn a_page_starts_from_the_kept_settings_and_keeps_them_again() {
        let (options, warnings) = page_options(&owned(&[]), || Some(kept_at(30.0))).expect("taken");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(options.settings.rate_hz, 30.0);
        assert_eq!(options.keep_settings, KeepSettings::LocalStorage);
        assert!(!options.tour_offer, "only a first visit offers the tour");
        // The query overrides what was kept, as the command line the settings file.
        let (options, _) =
            page_options(&owned(&[("hz", "60")]), || Some(kept_at(30.0))).expect("taken");
        assert_eq!(options.settings.rate_hz, 60.0);
        let (first, _) = page_options(&owned(&[]), || None).expect("taken");
        assert!(first.tour_offer);
        assert_eq!(first.keep_settings, KeepSettings::LocalStorage);
    }

    #[test]
    fn no_config_neither_reads_nor_keeps_the_kept_settings() {
        for value in ["", "1", "true"] {
            let (options, warnings) = page_options(&owned(&[("no-config", value)]), || {
                panic!("no-config read the kept settings")
            })
            .expect("taken");
            assert!(warnings.is_empty());
            assert_eq!(options.keep_settings, KeepSettings::Nowhere);
            assert_eq!(options.settings, crate::live::LiveSettings::default());
            assert!(!options.tour_offer, "as natively, no-config offers no tour");
        }
        let (options, _) =
            page_options(&owned(&[("no-config", "0")]), || Some(kept_at(30.0))).expect("taken");
        assert_eq!(options.settings.rate_hz, 30.0);
        assert_eq!(options.keep_settings, KeepSettings::LocalStorage);
    }

    #[test]
    fn names_and_values_are_quoted_without_control_characters() {
        let error = query(&[("screenshot", "\u{1b}[31m")]).expect_err("not a switch");
        assert!(!error.contains('\u{1b}'), "{error}");
    }

    #[test]
    fn the_parsers_message_reaches_the_page_without_usage_lines_or_control_characters() {
        let asked = query(&[("strategy", "no\u{1b}[2Jsuch")]).expect("passed to the parser");
        let error = Cli::command()
            .try_get_matches_from(&asked.arguments)
            .expect_err("no such strategy");
        let message = page_message(&error);
        assert!(message.contains("--strategy"), "{message}");
        assert!(!message.contains('\u{1b}'), "{message}");
        assert!(
            !message.contains("--help") && !message.starts_with("error:"),
            "{message}"
        );
        let unknown = Cli::command()
            .try_get_matches_from(&query(&[("glide", "1")]).expect("passed").arguments)
            .expect_err("no such option");
        assert!(
            page_message(&unknown).contains("--glide"),
            "{}",
            page_message(&unknown)
        );
    }

    proptest::proptest! {
        /// Whatever the query, the page gets arguments or a message: the parser never
        /// panics on them, and its message is printable.
        #[test]
        fn any_query_is_taken_or_refused_in_words(
            pairs in proptest::collection::vec(("[a-z-]{0,12}|.{0,6}", "[0-9a-z]{0,4}|.{0,12}"), 0..6)
        ) {
            let pairs: Vec<(String, String)> = pairs;
            if let Ok(asked) = page_arguments(&pairs)
                && let Err(error) = Cli::command().try_get_matches_from(&asked.arguments)
            {
                let message = page_message(&error);
                proptest::prop_assert!(
                    message
                        .split('\n')
                        .all(|line| !line.chars().any(char::is_control)),
                    "{message:?}"
                );
            }
        }
    }

    #[test]
    fn a_bad_value_gets_the_command_lines_message() {
        let asked = query(&[("hz", "5000")]).expect("passed to the parser");
        let error = Cli::command()
            .try_get_matches_from(&asked.arguments)
            .map_err(|error| error.to_string())
            .and_then(|matches| {
                use clap::FromArgMatches as _;
                let cli = Cli::from_arg_matches(&matches).map_err(|error| error.to_string())?;
                cli.window.options().map_err(|error| format!("{error:#}"))
            })
            .expect_err("5000 Hz is out of range");
        assert!(error.contains("--hz") && error.contains("5000"), "{error}");
    }
}
