//! Where a result came from, for JSON outputs that a paper may cite: the
//! tool's version (and commit, when the build said it), the command line,
//! when it started and finished (UTC), the machine (CPU model, cores) and
//! its load average at the start and at the end. Every tool's JSON takes it
//! from here ([`Provenance::start`], then [`Provenance::json`] at the end);
//! `compare --provenance` writes the same as `#` comment lines around a text
//! table or CSV ([`Provenance::header_lines`], [`Provenance::footer_lines`]).

use std::time::{SystemTime, UNIX_EPOCH};

/// What a run's JSON says about how and where it was made.
#[derive(Clone, Debug, PartialEq)]
pub struct Provenance {
    /// The command line, program first.
    pub command: Vec<String>,
    /// When it started, `YYYY-MM-DDTHH:MM:SSZ`.
    pub started: String,
    /// The 1, 5 and 15 minute load averages at the start (Linux only).
    pub load_at_start: Option<[f64; 3]>,
}

impl Provenance {
    /// The provenance of a run starting now, of this process's command line.
    pub fn start() -> Provenance {
        Provenance { command: std::env::args().collect(), started: utc_now(), load_at_start: load_average() }
    }

    /// The JSON object, with the end time and the load at the end read now.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "version": env!("CARGO_PKG_VERSION"),
            "commit": COMMIT,
            "command": self.command,
            "started_utc": self.started,
            "finished_utc": utc_now(),
            "cpu_model": cpu_model(),
            "cores": cores(),
            "load_at_start": self.load_at_start,
            "load_at_end": load_average(),
        })
    }

    /// What is known at the start, as `key: value` lines: the version (and
    /// commit), the command line, the start time, the machine and its load.
    pub fn header_lines(&self) -> Vec<String> {
        let commit = COMMIT.unwrap_or("unknown (build with CSP_COMMIT set to say it)");
        let cores = cores();
        vec![
            format!("version: {}, commit: {commit}", env!("CARGO_PKG_VERSION")),
            format!("command: {}", shell_words(&self.command)),
            format!("started: {}", self.started),
            format!(
                "machine: {}, {cores} core{}; load average at the start: {}",
                cpu_model().as_deref().unwrap_or("unknown CPU"),
                if cores == 1 { "" } else { "s" },
                load_words(self.load_at_start)
            ),
        ]
    }

    /// What is known at the end, read now: the end time and the load.
    pub fn footer_lines(&self) -> Vec<String> {
        vec![format!("finished: {}; load average at the end: {}", utc_now(), load_words(load_average()))]
    }
}

/// The commit the binary was built from: set by whoever builds one for a
/// paper, `CSP_COMMIT=$(git rev-parse HEAD) cargo build --release`.
const COMMIT: Option<&str> = option_env!("CSP_COMMIT");

/// The cores this process may use.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The 1, 5 and 15 minute load averages in words.
fn load_words(load: Option<[f64; 3]>) -> String {
    load.map_or("unknown".to_string(), |[one, five, fifteen]| format!("{one:.2} {five:.2} {fifteen:.2} (1, 5, 15 min)"))
}

/// A command line as a POSIX shell would read it back: a word with a
/// character the shell treats specially is quoted.
fn shell_words(words: &[String]) -> String {
    let quoted = words.iter().map(|word| {
        let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=+,:@%".contains(c));
        if plain { word.clone() } else { format!("'{}'", word.replace('\'', "'\\''")) }
    });
    quoted.collect::<Vec<_>>().join(" ")
}

/// The current time, `YYYY-MM-DDTHH:MM:SSZ`.
fn utc_now() -> String {
    let seconds = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    utc(seconds)
}

/// `seconds` after the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ`: the civil date of
/// the day number by Hinnant's `civil_from_days` (proleptic Gregorian).
fn utc(seconds: u64) -> String {
    let (days, time) = ((seconds / 86_400) as i64, seconds % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", time / 3600, time / 60 % 60, time % 60)
}

/// The load averages of `/proc/loadavg` (Linux), `None` elsewhere.
fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut fields = text.split_whitespace().map(|field| field.parse::<f64>().ok());
    Some([fields.next()??, fields.next()??, fields.next()??])
}

/// The CPU's model name from `/proc/cpuinfo` (Linux), `None` elsewhere.
fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix("model name")?.split_once(':').map(|(_, name)| name.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        // 2000-02-29 12:34:56 UTC, a leap day of a century leap year.
        assert_eq!(utc(951_827_696), "2000-02-29T12:34:56Z");
        // 2026-12-06 07:45:00 UTC.
        assert_eq!(utc(1_796_543_100), "2026-12-06T07:45:00Z");
    }

    #[test]
    fn command_lines_are_quoted_as_a_shell_reads_them() {
        let words = |list: &[&str]| list.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(
            shell_words(&words(&["sudoku", "compare", "--configs", "fc+mrv,mac"])),
            "sudoku compare --configs fc+mrv,mac"
        );
        assert_eq!(shell_words(&words(&["lab", "a b", "", "it's"])), "lab 'a b' '' 'it'\\''s'");
    }

    #[test]
    fn the_text_lines_say_what_the_json_says() {
        let provenance = Provenance {
            command: vec!["queens".into(), "compare".into(), "8".into()],
            started: "2026-12-06T07:45:00Z".into(),
            load_at_start: Some([1.5, 1.25, 0.5]),
        };
        let lines = provenance.header_lines();
        assert!(lines[0].starts_with(&format!("version: {}, commit: ", env!("CARGO_PKG_VERSION"))), "{lines:?}");
        assert_eq!(lines[1], "command: queens compare 8");
        assert_eq!(lines[2], "started: 2026-12-06T07:45:00Z");
        assert!(lines[3].ends_with("load average at the start: 1.50 1.25 0.50 (1, 5, 15 min)"), "{lines:?}");
        let footer = provenance.footer_lines();
        assert!(
            footer[0].starts_with("finished: 20") && footer[0].contains("; load average at the end: "),
            "{footer:?}"
        );
    }

    #[test]
    fn the_json_names_the_version_the_command_and_the_machine() {
        let json = Provenance::start().json();
        assert_eq!(json["version"], env!("CARGO_PKG_VERSION"));
        assert!(json["command"].as_array().is_some_and(|args| !args.is_empty()));
        assert!(json["cores"].as_u64().is_some_and(|n| n >= 1));
        assert!(json["started_utc"].as_str().is_some_and(|t| t.len() == 20 && t.ends_with('Z')));
        if cfg!(target_os = "linux") {
            assert!(json["load_at_start"].as_array().is_some_and(|load| load.len() == 3));
        }
    }
}
