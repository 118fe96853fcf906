//! Per-stage timing, for the benchmark and the hidden `--timings` flag.
//!
//! A [`Clock`] is started per file and `lap`ped after each stage: the time
//! since the previous lap is charged to the stage named. Adding a stage is
//! one line in [`stages!`] plus one `clock.lap(Stage::New)` in the engine.
//!
//! Timing is off unless [`set_enabled`] was called (the CLI does it for
//! `--timings` or `WARPLINT_TIMINGS`); a clock that is off never reads the
//! system clock, so the cost is one relaxed atomic load per file.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

macro_rules! stages {
    ($($variant:ident => $name:literal),+ $(,)?) => {
        /// A pipeline stage, in pipeline order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Stage {
            $($variant),+
        }

        impl Stage {
            pub const ALL: &'static [Stage] = &[$(Stage::$variant),+];

            pub fn name(self) -> &'static str {
                match self {
                    $(Stage::$variant => $name),+
                }
            }
        }
    };
}

// The stages that exist today, in pipeline order. `decode` is the UTF-8
// check and the `SourceFile`'s line index; `parse` is tree-sitter plus the
// syntax facts (error regions, macro table); `ir` is lowering plus constants
// from quoted includes; `diagnostics` applies the verdicts, suppressions,
// sorting and baseline fingerprints; `fix_check` re-lints the file once per
// fix offered (`engine::verify_fixes`).
stages! {
    Discover => "discover",
    Contracts => "contracts",
    Read => "read",
    Prefilter => "prefilter",
    Decode => "decode",
    Parse => "parse",
    Unit => "unit",
    Ir => "ir",
    Dataflow => "dataflow",
    Rules => "rules",
    Executor => "executor",
    Diagnostics => "diagnostics",
    FixCheck => "fix_check",
    Report => "report",
}

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Turn timing on or off for this process.
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Time spent in each stage (summed over files and threads: CPU-ish time,
/// not wall time, when several workers run at once).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StageTimes {
    nanos: [u64; Stage::ALL.len()],
}

impl StageTimes {
    pub fn add(&mut self, stage: Stage, d: Duration) {
        let slot = &mut self.nanos[stage as usize];
        *slot = slot.saturating_add(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
    }

    pub fn merge(&mut self, other: &StageTimes) {
        for (a, b) in self.nanos.iter_mut().zip(other.nanos) {
            *a = a.saturating_add(b);
        }
    }

    pub fn get(&self, stage: Stage) -> Duration {
        Duration::from_nanos(self.nanos[stage as usize])
    }

    pub fn total(&self) -> Duration {
        Duration::from_nanos(self.nanos.iter().fold(0u64, |a, &b| a.saturating_add(b)))
    }

    /// `(stage name, milliseconds)` in pipeline order.
    pub fn as_millis(&self) -> Vec<(&'static str, f64)> {
        Stage::ALL
            .iter()
            .map(|&s| (s.name(), self.get(s).as_secs_f64() * 1e3))
            .collect()
    }
}

/// A lap timer for one file (or one run-level stage).
#[derive(Debug)]
pub struct Clock {
    last: Option<Instant>,
    times: StageTimes,
}

impl Clock {
    /// Starts now if timing is enabled; otherwise a clock that does nothing.
    pub fn start() -> Clock {
        Clock {
            last: enabled().then(Instant::now),
            times: StageTimes::default(),
        }
    }

    /// Charge the time since the last lap (or the start) to `stage`.
    pub fn lap(&mut self, stage: Stage) {
        if let Some(last) = self.last {
            let now = Instant::now();
            self.times.add(stage, now - last);
            self.last = Some(now);
        }
    }

    /// Charge the time since the last lap to no stage (work no stage owns,
    /// such as dropping a file's syntax tree and IR).
    pub fn skip(&mut self) {
        if self.last.is_some() {
            self.last = Some(Instant::now());
        }
    }

    pub fn finish(self) -> StageTimes {
        self.times
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_times_add_merge_and_total() {
        let mut a = StageTimes::default();
        a.add(Stage::Parse, Duration::from_millis(3));
        let mut b = StageTimes::default();
        b.add(Stage::Parse, Duration::from_millis(2));
        b.add(Stage::Read, Duration::from_millis(1));
        a.merge(&b);
        assert_eq!(a.get(Stage::Parse), Duration::from_millis(5));
        assert_eq!(a.total(), Duration::from_millis(6));
        let names: Vec<&str> = a.as_millis().iter().map(|(n, _)| *n).collect();
        assert_eq!(names.first(), Some(&"discover"));
        assert_eq!(names.len(), Stage::ALL.len());
    }

    #[test]
    fn a_clock_that_is_off_records_nothing() {
        // Not `Clock::start()`: another test may have enabled timing.
        let mut off = Clock {
            last: None,
            times: StageTimes::default(),
        };
        std::thread::sleep(Duration::from_millis(2));
        off.lap(Stage::Parse);
        assert_eq!(off.finish().total(), Duration::ZERO);
        let mut on = Clock {
            last: Some(Instant::now()),
            times: StageTimes::default(),
        };
        std::thread::sleep(Duration::from_millis(2));
        on.lap(Stage::Parse);
        assert!(on.finish().get(Stage::Parse) >= Duration::from_millis(2));
    }
}
