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
