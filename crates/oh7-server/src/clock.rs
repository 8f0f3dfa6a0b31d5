//! The wall clock the server reads for what must survive a restart (turn-based tables'
//! deadlines), through one seam: [`Clock`]. Tests give the server a [`ManualClock`] and move it
//! forward instead of waiting days.

use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// What time it is.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Now.
    fn now(&self) -> SystemTime;

    /// Now, in whole seconds since 1970.
    fn now_s(&self) -> i64 {
        self.now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
    }
}

/// The system's clock.
#[derive(Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// A clock that stands still until moved (tests).
#[derive(Debug, Default)]
pub struct ManualClock {
    ahead: Mutex<Duration>,
}

impl ManualClock {
    /// Move the clock forward.
    pub fn advance(&self, by: Duration) {
        *self.ahead.lock().expect("clock lock") += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        SystemTime::now() + *self.ahead.lock().expect("clock lock")
    }
}

/// The system's clock plus the whole seconds written in a file, read each time (tests of the
/// real binary: `oh7 serve --test-clock-file FILE`; a missing or unreadable file is 0).
#[derive(Debug)]
pub struct FileOffsetClock {
    path: std::path::PathBuf,
}

impl FileOffsetClock {
    /// A clock ahead of the system's by the seconds in `path`.
    pub fn new(path: impl Into<std::path::PathBuf>) -> FileOffsetClock {
        FileOffsetClock { path: path.into() }
    }
}

impl Clock for FileOffsetClock {
    fn now(&self) -> SystemTime {
        let ahead = std::fs::read_to_string(&self.path).ok().and_then(|s| s.trim().parse::<u64>().ok()).unwrap_or(0);
        SystemTime::now() + Duration::from_secs(ahead)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_clock_is_ahead_by_the_files_seconds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ahead");
        let c = FileOffsetClock::new(&path);
        let now = SystemClock.now_s();
        assert!((c.now_s() - now).abs() <= 1, "no file: the system's time");
        std::fs::write(&path, "90000\n").unwrap();
        assert!((c.now_s() - now - 90_000).abs() <= 1);
        std::fs::write(&path, "not a number").unwrap();
        assert!((c.now_s() - now).abs() <= 1);
    }
}
