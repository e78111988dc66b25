//! How the time a frame owes splits into steps, time dropped and time carried: the two
//! splits the lab's rules ([`super::rules`]) and the engines' own loops
//! ([`super::preset`]) share, a clamped accumulator's and equal substeps'.

use super::{Nanos, StepPlan};

/// How time owed splits into steps, time dropped and time carried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    /// The steps to take.
    pub steps: StepPlan,
    /// Real time dropped by the cap on steps.
    pub dropped: Nanos,
    /// Real time carried to the next frame.
    pub carried: Nanos,
}

/// The accumulator's split: `owed` (the carried accumulator plus this frame's time) is spent
/// in whole steps of `dt` while at least `dt` is left; at most `max_steps` of them are taken,
/// the whole steps beyond are dropped and the fraction of a step is carried.
pub(crate) fn accumulate(owed: Nanos, dt: Nanos, max_steps: u64) -> Split {
    let whole = owed / dt;
    let count = whole.min(max_steps);
    Split {
        steps: StepPlan::uniform(count, dt),
        dropped: (whole - count) * dt,
        carried: owed % dt,
    }
}

/// Equal substeps: `owed` in `n = ceil(owed / max)` steps of equal size, none longer than
/// `max`. Above `max_steps` substeps, `max_steps` steps of `max` are taken and the rest is
/// dropped ("we're losing time", as Unreal's solver says). The nanoseconds that do not
/// divide evenly by `n` (fewer than `n`) are carried to the next frame rather than lost,
/// where Unreal's float substeps round them away.
pub(crate) fn equal_substeps(owed: Nanos, max: Nanos, max_steps: u64) -> Split {
    let n = owed.div_ceil(max);
    if n > max_steps {
        return Split {
            steps: StepPlan::uniform(max_steps, max),
            dropped: owed - max_steps * max,
            carried: 0,
        };
    }
    let size = owed.checked_div(n).unwrap_or(0);
    Split {
        steps: StepPlan::uniform(n, size),
        dropped: 0,
        carried: owed - n * size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_substeps_split_evenly_and_carry_what_does_not_divide() {
        // 50 ms in steps of at most 16.67 ms: three of 16.67 ms, 2 ns carried.
        let stepped = equal_substeps(50_000_000, 16_666_668, 6);
        assert_eq!(stepped.steps, StepPlan::uniform(3, 16_666_666));
        assert_eq!((stepped.dropped, stepped.carried), (0, 2));
        // At most 6: a 300 ms frame takes 6 of 16.67 ms and drops the rest.
        let stepped = equal_substeps(300_000_000, 16_666_668, 6);
        assert_eq!(stepped.steps, StepPlan::uniform(6, 16_666_668));
        assert_eq!(
            (stepped.dropped, stepped.carried),
            (300_000_000 - 6 * 16_666_668, 0)
        );
        // Just over one step makes two halves.
        let stepped = equal_substeps(16_667_000, 16_666_668, 6);
        assert_eq!(stepped.steps, StepPlan::uniform(2, 8_333_500));
        assert!(equal_substeps(0, 10, 6).steps.is_empty());
    }

    #[test]
    fn accumulate_drops_whole_steps_beyond_the_cap_and_keeps_the_fraction() {
        let stepped = accumulate(105, 20, 3);
        assert_eq!(stepped.steps, StepPlan::uniform(3, 20));
        assert_eq!((stepped.dropped, stepped.carried), (40, 5));
    }
}
