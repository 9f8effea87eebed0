//! Running MiniZinc and the solvers as child processes, for the spec runner
//! and the benchmark: a time limit enforced by killing the child's whole
//! process group (MiniZinc starts the solver as its own child), the solver
//! configurations of fzn-csp and of the Gecode reference.

use std::io::Read;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A finished (or killed) child process.
#[derive(Clone, Debug)]
pub(crate) struct Finished {
    /// The exit status, `None` when it was killed.
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) elapsed: Duration,
    /// Whether the hard time limit killed it.
    pub(crate) killed: bool,
}

/// Runs `command` to the end, or kills its process group after `limit`.
pub(crate) fn run(command: &mut Command, limit: Duration) -> std::io::Result<Finished> {
    let start = Instant::now();
    let mut child =
        command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0).spawn()?;
    let mut stdout_pipe = child.stdout.take();
    let mut stderr_pipe = child.stderr.take();
    // The pipes are drained on threads so that a chatty child never blocks.
    let stdout = std::thread::spawn(move || {
        let mut text = Vec::new();
        if let Some(pipe) = stdout_pipe.as_mut() {
            let _ = pipe.read_to_end(&mut text);
        }
        String::from_utf8_lossy(&text).into_owned()
    });
    let stderr = std::thread::spawn(move || {
        let mut text = Vec::new();
        if let Some(pipe) = stderr_pipe.as_mut() {
            let _ = pipe.read_to_end(&mut text);
        }
        String::from_utf8_lossy(&text).into_owned()
    });
    let mut killed = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() > limit {
            // The negative id names the process group this child leads.
            let _ = Command::new("kill").args(["-KILL", "--"]).arg(format!("-{}", child.id())).status();
            killed = true;
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ok(Finished {
        code: if killed { None } else { status.code() },
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        elapsed: start.elapsed(),
        killed,
    })
}

/// The binary `name` beside the running one (`target/release/fzn-csp` beside
/// `target/release/mzn-spec`).
pub(crate) fn sibling_binary(name: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let path = exe.parent()?.join(name);
    path.exists().then_some(path)
}

/// Writes a solver configuration for `fzn_csp` into `dir`, under an id of
/// its own so that MiniZinc runs this binary even when another fzn-csp is
/// installed; returns the `.msc` path. The library is the one the binary
/// writes itself (`fzn-csp --print-msc`, which every version has, run with
/// `XDG_DATA_HOME` in `dir`, so that it writes there and nowhere else): an
/// older binary gets the library it was built with, not today's, which may
/// declare globals it does not lower.
pub(crate) fn csp_solver(dir: &Path, fzn_csp: &Path) -> std::io::Result<PathBuf> {
    let executable = fzn_csp.canonicalize()?;
    // Emptied first: the library of a binary run before must not mix in.
    let data = dir.join("csp-data");
    if data.exists() {
        std::fs::remove_dir_all(&data)?;
    }
    let printed = std::process::Command::new(&executable).arg("--print-msc").env("XDG_DATA_HOME", &data).output()?;
    let failed = |why: &str| {
        let stderr = String::from_utf8_lossy(&printed.stderr);
        std::io::Error::other(format!("{} --print-msc: {why} {}", executable.display(), stderr.trim()))
    };
    if !printed.status.success() {
        return Err(failed("failed"));
    }
    let configuration: serde_json::Value =
        serde_json::from_slice(&printed.stdout).map_err(|_| failed("printed no solver configuration"))?;
    let mznlib = configuration["mznlib"]
        .as_str()
        .map(PathBuf::from)
        .filter(|path| path.starts_with(&data) && path.is_dir())
        .ok_or_else(|| failed("wrote no solver library under XDG_DATA_HOME"))?;
    let msc = dir.join("csp.msc");
    let text = crate::mznlib::msc_with_id(crate::mznlib::SCRATCH_SOLVER_ID, &executable, &mznlib.canonicalize()?);
    std::fs::write(&msc, text)?;
    Ok(msc)
}

/// Sets up Gecode 6.2 (Debian's `flatzinc` package) as a working MiniZinc
/// reference in `dir`; returns the `.msc` path. Debian bookworm's MiniZinc
/// 2.6.4 cannot compile models that include `globals.mzn` with Gecode's own
/// library, whose `inverse.mzn` and `nvalue.mzn` clash with 2.6's standard
/// library: a copy without those two files works (the same setup as the
/// shared `tools/gecode-reference` script).
pub(crate) fn gecode_solver(dir: &Path) -> std::io::Result<PathBuf> {
    let source = Path::new("/usr/share/minizinc/gecode");
    let executable = which("fzn-gecode")
        .filter(|_| source.is_dir())
        .ok_or_else(|| std::io::Error::other("Gecode is not installed (apt-get install -y minizinc flatzinc)"))?;
    let library = dir.join("gecode-ref-lib");
    std::fs::create_dir_all(&library)?;
    for entry in std::fs::read_dir(source)? {
        let entry = entry?;
        let name = entry.file_name();
        if name != "inverse.mzn" && name != "nvalue.mzn" && entry.file_type()?.is_file() {
            std::fs::copy(entry.path(), library.join(&name))?;
        }
    }
    let msc = dir.join("gecode-ref.msc");
    let configuration = serde_json::json!({
        "id": "org.reference.gecode", "name": "gecode-ref", "version": "6.2.0",
        "executable": executable.to_string_lossy(), "mznlib": library.canonicalize()?.to_string_lossy(),
        "tags": ["cp", "int"], "stdFlags": ["-a", "-n", "-s", "-t", "-p", "-r", "-f"],
        "supportsFzn": true, "needsSolns2Out": true,
    });
    std::fs::write(&msc, configuration.to_string())?;
    Ok(msc)
}

/// The path of a program on `PATH`.
pub(crate) fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|candidate| candidate.is_file())
}

/// A fresh scratch directory under the system's temporary directory.
pub(crate) fn scratch_dir(tool: &str) -> std::io::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("{tool}-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Runs `work` on every item with `jobs` threads, and hands each result, as it
/// comes, to `collect` on the calling thread (the only one that may write to
/// the tool's streams, whose locks it holds). Stops at `collect`'s first error.
pub(crate) fn parallel<T: Sync, R: Send>(
    jobs: usize,
    items: &[T],
    work: impl Fn(usize, &T) -> R + Sync,
    mut collect: impl FnMut(R) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::channel();
        for _ in 0..jobs.max(1) {
            let sender = sender.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(index) else { break };
                    if sender.send(work(index, item)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for result in receiver {
            // Dropping the receiver on an error makes the workers stop.
            collect(result)?;
        }
        Ok(())
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// An executable shell script `name` in `dir` with `body`.
    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// The configuration for a binary names the library that binary writes
    /// (an older fzn-csp's, whose library declares one global of its own
    /// here), not today's; a binary that prints no configuration is an error.
    #[test]
    fn the_solver_library_is_the_binarys_own() {
        let dir = std::env::temp_dir().join(format!("csp-solver-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let old = script(
            &dir,
            "fzn-csp-old",
            "[ \"$1\" = --print-msc ] || exit 2\n\
             lib=\"$XDG_DATA_HOME/csp/fzn-csp-0.0.1/mznlib\"\n\
             mkdir -p \"$lib\" && echo 'predicate fzn_old(var int: x);' > \"$lib/fzn_old.mzn\"\n\
             printf '{\"id\": \"org.csp.csp\", \"mznlib\": \"%s\"}\\n' \"$lib\"\n",
        );
        for _ in 0..2 {
            let msc = csp_solver(&dir, &old).unwrap();
            let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(msc).unwrap()).unwrap();
            let mznlib = PathBuf::from(json["mznlib"].as_str().unwrap());
            assert!(mznlib.join("fzn_old.mzn").is_file(), "{mznlib:?}");
            assert!(!mznlib.join("fzn_all_different_int.mzn").exists(), "today's library in {mznlib:?}");
            assert_eq!(json["id"], crate::mznlib::SCRATCH_SOLVER_ID);
            assert_eq!(json["executable"], old.canonicalize().unwrap().to_str().unwrap());
        }
        let broken = script(&dir, "fzn-csp-broken", "echo 'unknown option' >&2\nexit 2\n");
        let error = csp_solver(&dir, &broken).unwrap_err();
        assert!(error.to_string().contains("unknown option"), "{error}");
        let silent = script(&dir, "fzn-csp-silent", "exit 0\n");
        assert!(csp_solver(&dir, &silent).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
