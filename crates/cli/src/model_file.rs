//! Model files compared side by side: XCSP3 instances (`.xml`, read and
//! lowered by [`csp_xcsp3`]) and FlatZinc models (`.fzn`, by
//! [`csp_flatzinc`]; MiniZinc models compile to FlatZinc with `minizinc -c
//! --solver csp`), each lowered into a csp [`Model`] and run through the
//! shared comparison ([`report::run_comparison`]): the same tables, CSV,
//! JSON, bar chart and cactus plot as the built-in models', every solution
//! checked against the model.
//!
//! This is `csp-lab compare FILE...`; `csp-xcsp compare FILE...` is the same
//! path with every file read as XCSP3.
//!
//! The configurations say the whole strategy: a FlatZinc file's search
//! annotations are not followed. `--goal optimize` runs branch and bound on
//! the file's objective (and checks that the configurations agree on the
//! optimum); the other goals ignore the objective, with a note. A file that
//! is unsatisfiable before search, or that uses a feature its front end
//! lacks, is left out with a note; a file that cannot be read, parsed or
//! lowered is an error that names the file and the place (line and column);
//! every file is read, so that every bad one is named, and then nothing is
//! compared (exit status 2).

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use csp::Model;

use crate::app::{self, Io};
use crate::report::{self, CompareArgs, GoalArg};

/// The formats of model files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// An XCSP3 instance (XML).
    Xcsp3,
    /// A FlatZinc model, as MiniZinc compiles one.
    FlatZinc,
}

impl FileFormat {
    /// The format a file's extension names: `.xml` or `.fzn` (any case).
    ///
    /// ```
    /// use csp_cli::model_file::FileFormat;
    /// use std::path::Path;
    ///
    /// assert_eq!(FileFormat::of(Path::new("golomb.xml")), Ok(FileFormat::Xcsp3));
    /// assert_eq!(FileFormat::of(Path::new("golomb.FZN")), Ok(FileFormat::FlatZinc));
    /// assert!(FileFormat::of(Path::new("golomb.mzn")).unwrap_err().contains("minizinc -c"));
    /// ```
    pub fn of(path: &Path) -> Result<FileFormat, String> {
        let extension = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("xml") => Ok(FileFormat::Xcsp3),
            Some("fzn") => Ok(FileFormat::FlatZinc),
            Some("mzn") => Err(format!(
                "{}: a MiniZinc model; compile it to FlatZinc first: minizinc -c --solver csp MODEL.mzn [DATA.dzn] \
                 (docs/minizinc.md)",
                path.display()
            )),
            _ => Err(format!(
                "{}: cannot tell the model's format: name an XCSP3 instance FILE.xml and a FlatZinc model FILE.fzn",
                path.display()
            )),
        }
    }
}

impl FileFormat {
    /// The format of a text read from standard input, where no extension
    /// names it: XCSP3 when its first character after blanks is `<` (an XML
    /// declaration, comment or element; FlatZinc never starts so), FlatZinc
    /// otherwise.
    ///
    /// ```
    /// use csp_cli::model_file::FileFormat;
    ///
    /// assert_eq!(FileFormat::sniff("\n <?xml version=\"1.0\"?><instance/>"), FileFormat::Xcsp3);
    /// assert_eq!(FileFormat::sniff("var 1..3: x;\nsolve satisfy;\n"), FileFormat::FlatZinc);
    /// ```
    pub fn sniff(text: &str) -> FileFormat {
        if text.trim_start().starts_with('<') { FileFormat::Xcsp3 } else { FileFormat::FlatZinc }
    }
}

impl fmt::Display for FileFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileFormat::Xcsp3 => "XCSP3",
            FileFormat::FlatZinc => "FlatZinc",
        })
    }
}

/// A model file lowered for a comparison.
#[derive(Debug)]
pub struct Instance {
    /// The name in the tables: the file's name without its extension.
    pub name: String,
    /// The model (with the file's objective, if any).
    pub model: Model,
    /// Whether the file asks for an optimum.
    pub optimizes: bool,
}

/// What reading a model file gives.
#[derive(Debug)]
pub enum Loaded {
    /// A model to compare.
    Instance(Instance),
    /// A file left out of the comparison, and why (unsatisfiable before
    /// search, or a feature the front end lacks).
    LeftOut(String),
}

/// A file's name in the tables and notes: its name without the extension.
fn name(path: &Path) -> String {
    path.file_stem().map_or_else(|| path.display().to_string(), |stem| stem.to_string_lossy().into_owned())
}

/// Reads and lowers one model file (`-` reads standard input) in `format`,
/// or, when `format` is `None`, in the format its text shows
/// ([`FileFormat::sniff`]). An error names the file, and the line (and
/// column) where its front end found the problem.
pub fn load(path: &Path, format: Option<FileFormat>, io: &mut Io<'_>) -> anyhow::Result<Loaded> {
    let source = app::read_text(path, io)?;
    let format = format.unwrap_or_else(|| FileFormat::sniff(&source));
    let place = || path.display().to_string();
    let (model, optimizes, inconsistent) = match format {
        FileFormat::Xcsp3 => match csp_xcsp3::lower(&source) {
            Ok(lowered) => (lowered.model, lowered.goal != csp_xcsp3::Goal::Satisfy, lowered.inconsistent),
            Err(error) if error.is_unsupported() => return Ok(Loaded::LeftOut(error.to_string())),
            Err(error) => return Err(error).with_context(place),
        },
        FileFormat::FlatZinc => {
            let parsed = csp_flatzinc::parse(&source).with_context(place)?;
            match csp_flatzinc::lower(&parsed) {
                Ok(lowered) => {
                    let optimizes = lowered.objective != csp_flatzinc::Objective::Satisfy;
                    (lowered.model, optimizes, lowered.inconsistent)
                }
                Err(error) if error.is_unsupported() => return Ok(Loaded::LeftOut(error.to_string())),
                Err(error) => return Err(error).with_context(place),
            }
        }
    };
    Ok(match inconsistent {
        Some(reason) => Loaded::LeftOut(format!("unsatisfiable before search ({reason})")),
        None => Loaded::Instance(Instance { name: name(path), model, optimizes }),
    })
}

/// Compares the configurations of `args` on the model files: each read in
/// `format`, or in the format its extension names ([`FileFormat::of`]) when
/// `format` is `None` (standard input, `-`, in the format its text shows).
/// Notes (files left out, objectives ignored) go to stderr; the exit status
/// is [`report::run_comparison`]'s.
pub fn compare(
    files: &[PathBuf],
    format: Option<FileFormat>,
    args: &CompareArgs,
    io: &mut Io<'_>,
) -> anyhow::Result<u8> {
    // Every format is known before any file is read: a misnamed file last
    // in the list should not cost the time of lowering the others.
    let formats = files
        .iter()
        .map(|file| match format {
            Some(format) => Ok(Some(format)),
            None if file.as_os_str() == "-" => Ok(None),
            None => FileFormat::of(file).map(Some),
        })
        .collect::<Result<Vec<Option<FileFormat>>, String>>()
        .map_err(anyhow::Error::msg)?;
    // A batch goes on past a bad file, so that one run names every bad file
    // (as `csp-sudoku compare` names every bad puzzle); then nothing is
    // compared, since a table without some of the files would read as the
    // whole comparison.
    let mut instances = Vec::new();
    let mut bad = 0u64;
    for (file, format) in files.iter().zip(formats) {
        let loaded = match load(file, format, io) {
            Ok(loaded) => loaded,
            Err(err) => {
                bad += 1;
                writeln!(io.stderr, "error: {err:#}")?;
                continue;
            }
        };
        match loaded {
            Loaded::Instance(instance) => {
                if instance.optimizes && args.goal != GoalArg::Optimize && args.quiet.notes() {
                    writeln!(
                        io.stderr,
                        "note: {}: the objective is ignored (--goal optimize compares optima)",
                        instance.name
                    )?;
                }
                instances.push(instance);
            }
            Loaded::LeftOut(reason) => writeln!(io.stderr, "note: {} left out: {reason}", name(file))?,
        }
    }
    if bad > 0 {
        // With one file its error is the whole story (and reads as before).
        if files.len() > 1 {
            let plural = if bad == 1 { "" } else { "s" };
            writeln!(io.stderr, "error: {bad} bad input{plural} (see above): nothing was compared")?;
        }
        return Ok(app::EXIT_BAD_INPUT);
    }
    let named: Vec<(&str, &Model)> = instances.iter().map(|i| (i.name.as_str(), &i.model)).collect();
    report::run_comparison(&named, args, io.stdout, io.stderr)
}
