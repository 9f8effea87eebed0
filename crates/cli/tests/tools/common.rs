//! Helpers shared by the tests of the tools.

use std::io::{self, Write};

/// A writer whose reader went away after `room` bytes.
pub(crate) struct ClosedPipe {
    pub(crate) room: usize,
}

impl Write for ClosedPipe {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.room == 0 {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
        }
        let n = buf.len().min(self.room);
        self.room -= n;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The rows of the first aligned comparison table in `text` (the totals), as
/// maps from column name to cell.
pub(crate) fn table_rows(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut lines = text.lines().skip_while(|line| !line.starts_with("config "));
    let header: Vec<String> = lines.next().expect("a header line").split_whitespace().map(String::from).collect();
    assert!(lines.next().is_some_and(|rule| rule.starts_with("---")), "a rule under the header: {text}");
    lines
        .take_while(|line| !line.trim().is_empty())
        .map(|line| header.iter().cloned().zip(line.split_whitespace().map(String::from)).collect())
        .collect()
}
