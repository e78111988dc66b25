//! What each chapter's evidence holds: what the chapter watches, and nothing else.

use super::tests::{chapter, run, steady};
use super::*;

#[test]
fn each_chapters_evidence_holds_what_it_watches_and_nothing_else() {
    for chapter in &CHAPTERS {
        let (_, live, tour) = run(chapter.id, |_| {}, 0.5, steady);
        let evidence = tour.evidence(&live);
        assert!(!evidence.panes.is_empty(), "{}", chapter.id);
        for pane in &evidence.panes {
            let held = match pane.watched {
                Watched::Nothing => Watches::Readouts,
                Watched::Spring(_) => Watches::Spring,
                Watched::Bearing { .. } => Watches::Bearing,
                Watched::Eyes(_) => Watches::Eyes,
            };
            assert_eq!(held, chapter.watches, "{}: {pane:?}", chapter.id);
        }
    }
    // The chapters whose claims read a pane's motion watch it.
    let watches = |id| CHAPTERS[chapter(id)].watches;
    assert_eq!(watches("extrapolation"), Watches::Spring);
    assert_eq!(watches("camera"), Watches::Bearing);
    assert_eq!(watches("first-person"), Watches::Eyes);
}
