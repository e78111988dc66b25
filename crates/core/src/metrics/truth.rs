//! Where the exact spring is, asked once per simulated time: the truth the position error is
//! measured against.
//!
//! Every frame, every pane asks where the spring truly is at the simulated time it shows.
//! The answer is an exponential, a sine and a cosine of that time, the costliest sum in a
//! frame of the metrics, and it is often asked again: a pane that shows the same step as
//! the frame before asks at the same time, and panes whose strategies show the same time
//! (the frame's own, or one step behind it) ask the same question in the same frame. A
//! [`TruthMemo`] answers such questions from the last few it computed. It is shared by
//! every pane of a frame loop that runs them frame by frame together; the answer is the
//! same value to the bit whoever computed it, so sharing changes no result.
//!
//! It keeps one solution. Where the panes' solutions differ (a kick lands at each pane's
//! next step, so panes stepping at different times part until a reset), it starts over
//! whenever a pane asks of another solution than the last: each question is then worked
//! out afresh, a sine and a cosine per pane and frame, which the window's few panes do not
//! feel. The bench never kicks.

use crate::scene::{Scene, SpringParams, SpringTruth, TruthCurve};
use crate::timestep::{Nanos, secs_from_ns};

/// Answers kept: the panes of one frame loop ask at a few distinct times a frame (the
/// frame's own, a step behind it, the last step's, a fixed step's own clock).
const KEPT: usize = 4;

/// The exact spring's positions asked lately (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct TruthMemo {
    /// The exact solution asked of, its parameters, and the curve they make (its constants
    /// worked out once); the answers are of this curve.
    curve: Option<(SpringTruth, SpringParams, TruthCurve)>,
    /// Simulated times asked, with the displacement there, m; the oldest is replaced.
    answers: [Option<(Nanos, f64)>; KEPT],
    /// The slot the next new answer goes to.
    next: usize,
}

impl TruthMemo {
    /// Where `scene`'s spring truly is at simulated time `s`, m: `scene`'s exact solution
    /// ([`Scene::true_spring`]) asked at `s`, or the answer to the same question asked
    /// lately.
    pub fn spring_x(&mut self, scene: &Scene, s: Nanos) -> f64 {
        let (truth, params) = (*scene.truth(), scene.config().spring);
        let curve = match &self.curve {
            Some((kept, kept_params, curve)) if *kept == truth && *kept_params == params => curve,
            _ => {
                self.answers = [None; KEPT];
                &self.curve.insert((truth, params, truth.curve(&params))).2
            }
        };
        if let Some((_, x)) = self.answers.iter().flatten().find(|(at, _)| *at == s) {
            return *x;
        }
        let x = curve.state_at(secs_from_ns(s)).x;
        self.answers[self.next] = Some((s, x));
        self.next = (self.next + 1) % KEPT;
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::SceneConfig;

    #[test]
    fn a_remembered_answer_is_the_exact_spring_to_the_bit_whichever_scene_asked_first() {
        const MS: Nanos = 1_000_000;
        // Two scenes whose exact solutions part at a kick, and a third with a stiffer
        // spring: the memo is asked of them in turn, at times shared and not.
        let mut kicked = Scene::new(SceneConfig::new());
        let mut calm = Scene::new(SceneConfig::new());
        let mut stiff_config = SceneConfig::new();
        stiff_config.spring.natural_hz *= 2.0;
        let mut stiff = Scene::new(stiff_config);
        let mut memo = TruthMemo::default();
        let mut asked = 0;
        for step in 0..200u64 {
            if step == 50 {
                kicked.kick();
            }
            for scene in [&mut kicked, &mut calm, &mut stiff] {
                scene.step(20 * MS);
            }
            for s in [step * 20 * MS, step * 7 * MS, (step / 3) * 20 * MS] {
                for scene in [&kicked, &calm, &stiff, &calm, &kicked] {
                    let remembered = memo.spring_x(scene, s);
                    let exact = scene.true_spring(s).x;
                    assert_eq!(remembered.to_bits(), exact.to_bits(), "step {step}, {s} ns");
                    asked += 1;
                }
            }
        }
        assert_eq!(asked, 3000);
        assert_ne!(
            kicked.truth(),
            calm.truth(),
            "the kick parted the solutions"
        );
    }
}
