//! Which swap chain of the chosen application is read.

use super::{PRESENTMON2, options};
use crate::trace::{LoadOptions, TraceError, parse};

fn swap_chain(address: &str) -> LoadOptions {
    LoadOptions {
        swap_chain: Some(address.to_owned()),
        ..LoadOptions::default()
    }
}

/// g.exe on swap chain 0x1A (3 rows) and 0x2B (2 rows), interleaved.
const TWO_SWAP_CHAINS: &str = "Application,SwapChainAddress,MsBetweenPresents,MsUntilDisplayed\n\
                               g.exe,0x1A,NA,5\n\
                               g.exe,0x2B,NA,7\n\
                               g.exe,0x1A,16,6\n\
                               g.exe,0x2B,33,NA\n\
                               g.exe,0x1A,17,4\n";

#[test]
fn swap_chain_with_most_rows_is_chosen_and_said_in_a_note() {
    let trace = parse(TWO_SWAP_CHAINS, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.frame_times_ns, [16_000_000, 17_000_000]);
    assert_eq!(
        trace.display_ns,
        Some(vec![Some(6_000_000), Some(4_000_000)])
    );
    assert_eq!(
        trace.notes[1],
        "pm.csv: using swap chain 0x1A of \"g.exe\" (3 rows), the one with the most rows; \
         also present: 0x2B (2 rows); PresentMon measures each swap chain on its own, so only \
         one is used; choose another with --swap-chain ADDR"
    );
    // A tie goes to the swap chain seen first.
    let tie = "Application,SwapChainAddress,MsBetweenPresents\ng.exe,0x2,1\ng.exe,0x1,2\n";
    let trace = parse(tie, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.frame_times_ns, [1_000_000]);
}

#[test]
fn swap_chain_option_picks_another_written_any_way() {
    for address in ["0x2B", "0x2b", "2b", "0X000000000000002B", "  0x02B "] {
        let trace = parse(TWO_SWAP_CHAINS, "pm.csv", &swap_chain(address)).unwrap();
        assert_eq!(trace.frame_times_ns, [33_000_000], "{address}");
        assert_eq!(trace.display_ns, Some(vec![None]), "{address}");
        // The application, skipped-row and columns notes; the choice was the user's.
        assert_eq!(trace.notes.len(), 3, "{:?}", trace.notes);
        assert!(!trace.notes.iter().any(|note| note.contains("--swap-chain")));
    }
}

#[test]
fn unknown_swap_chain_lists_the_swap_chains_present() {
    let err = parse(TWO_SWAP_CHAINS, "pm.csv", &swap_chain("0x3C")).unwrap_err();
    assert!(matches!(err, TraceError::UnknownSwapChain { .. }));
    assert_eq!(
        err.to_string(),
        "pm.csv: no PresentMon rows of \"g.exe\" for swap chain \"0x3C\"; swap chains of \
         \"g.exe\": 0x1A (3 rows), 0x2B (2 rows)"
    );
    // The swap chain of another application is no swap chain of this one.
    let err = parse(PRESENTMON2, "pm.csv", &swap_chain("0x0000020F00AA1230")).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("swap chains of \"Game.exe\": 0x000001D2A3B4C5D0 (10 rows)"),
        "{err}"
    );
    let text = "Application,MsBetweenPresents\ng.exe,16\n";
    let err = parse(text, "pm.csv", &swap_chain("0x1")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pm.csv: no PresentMon rows of \"g.exe\" for swap chain \"0x1\"; swap chains of \
         \"g.exe\": none (the file has no SwapChainAddress column)"
    );
}
