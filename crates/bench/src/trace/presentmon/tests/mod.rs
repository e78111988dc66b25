//! The PresentMon reader on captures written out in the tests, every value known.

mod applications;
mod display;
mod generations;
mod swap_chains;

use crate::trace::LoadOptions;

fn options(process: Option<&str>) -> LoadOptions {
    LoadOptions {
        process: process.map(str::to_owned),
        ..LoadOptions::default()
    }
}

// A PresentMon 2.x capture written by hand (also shipped as
// assets/traces/presentmon2-display.csv): Game.exe at about 60 Hz with uneven CPU starts,
// shown on a 60 Hz display, one frame never shown, and a few rows of dwm.exe.
//
// How the numbers were derived (all exact in units of 0.0001 ms, so every column is
// written exactly with 4 decimals):
//
// - CPU starts: frame 1 starts at 1000 ms (CPUStartTime is in seconds, 1.0000000); the
//   intervals alternate 15.0000 and 18.3333 ms (MsBetweenAppStart of frame k is
//   CPUStart(k+1) - CPUStart(k)). An 11th frame (CPUStart 1166.6665) ends the capture
//   before PresentMon wrote its row; it gives row 10 its MsBetweenAppStart and
//   DisplayedTime. AnimationTime is CPUStart(k) - CPUStart(1).
// - MsCPUBusy (CPU start to Present()) is chosen per frame, 9.85 to 12.15 ms. The next
//   frame starts when Present() returns, so MsInPresentAPI = MsCPUWait =
//   MsBetweenAppStart - MsCPUBusy. present(k) = CPUStart(k) + MsCPUBusy(k), and
//   MsBetweenPresents = present(k) - present(k-1) (NA on the first row).
// - Display: vblanks every 16.6667 ms from 0 (vblank n at n * 16.6667). The GPU finishes
//   a frame 2.9 to 3.3 ms after its Present() (not a column here); the frame is shown at
//   the first vblank after that: frames 1-5 at vblanks 61-65 (1016.6687 ... 1083.3355),
//   frames 7-10 at 67-70 (1116.6689 ... 1166.6690), frame 11 at 71 (1183.3357).
// - Frame 6 (line 9) is never shown: its GPU work took 9 ms and finished at 1100.9666,
//   just after vblank 66 (1100.0022); frame 7 was finished (1113.2499) before vblank 67,
//   so the compositor showed frame 7 there and frame 6 never reached the screen. Its
//   display columns are NA, and frame 5 stays on screen for two refreshes.
// - MsUntilDisplayed = display - present; DisplayLatency = display - CPUStart
//   (= MsCPUBusy + MsUntilDisplayed); MsBetweenDisplayChange = display(k) - display(j)
//   and DisplayedTime = display(next shown) - display(k), with j the previous shown frame;
//   MsAnimationError = (CPUStart(k) - CPUStart(j)) - (display(k) - display(j)), which is
//   PresentMon's simulation elapsed minus display elapsed with the simulation starting at
//   the CPU start. NA where there is no previous shown frame or the frame was not shown.
// - dwm.exe: 4 rows 50.0001 ms (3 refreshes) apart on its own swap chain, CPU start 3 ms
//   before vblanks 61, 64, 67, 70, 1 ms busy, shown at those vblanks.
//
// Expected: Game.exe's rows 2 to 10 are frames (row 1 has no previous MsBetweenAppStart),
// their times 15, 18.3333, 15, ... ms; their display delays are DisplayLatency, with
// frame 6 (the 5th frame of the trace) never shown.
const PRESENTMON2: &str = "\
Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,CPUStartTime,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsBetweenPresents,MsInPresentAPI,MsUntilDisplayed,MsBetweenDisplayChange,DisplayLatency,DisplayedTime,MsAnimationError,AnimationTime
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0000000,15.0000,11.2000,3.8000,NA,3.8000,5.4687,NA,16.6687,16.6667,NA,0.0000
dwm.exe,1100,0x0000020F00AA1230,DXGI,1,0,0,Hardware: Legacy Flip,1.0136687,50.0001,1.0000,49.0001,NA,49.0001,2.0000,NA,3.0000,50.0001,NA,0.0000
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0150000,18.3333,9.8500,8.4833,13.6500,8.4833,8.4854,16.6667,18.3354,16.6667,-1.6667,15.0000
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0333333,15.0000,12.1500,2.8500,20.6333,2.8500,4.5188,16.6667,16.6688,16.6667,1.6666,33.3333
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0483333,18.3333,10.4000,7.9333,13.2500,7.9333,7.9355,16.6667,18.3355,16.6667,-1.6667,48.3333
dwm.exe,1100,0x0000020F00AA1230,DXGI,1,0,0,Hardware: Legacy Flip,1.0636688,50.0001,1.0000,49.0001,50.0001,49.0001,2.0000,50.0001,3.0000,50.0001,0.0000,50.0001
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0666666,15.0000,11.7500,3.2500,19.6833,3.2500,4.9189,16.6667,16.6689,33.3334,1.6666,66.6666
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0816666,18.3333,10.3000,8.0333,13.5500,8.0333,NA,NA,NA,NA,NA,81.6666
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0999999,15.0000,10.1000,4.9000,18.1333,4.9000,6.5690,33.3334,16.6690,16.6667,-0.0001,99.9999
dwm.exe,1100,0x0000020F00AA1230,DXGI,1,0,0,Hardware: Legacy Flip,1.1136689,50.0001,1.0000,49.0001,50.0001,49.0001,2.0000,50.0001,3.0000,50.0001,0.0000,100.0002
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.1149999,18.3333,11.5500,6.7833,16.4500,6.7833,6.7857,16.6667,18.3357,16.6667,-1.6667,114.9999
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.1333332,15.0000,9.9000,5.1000,16.6833,5.1000,6.7691,16.6667,16.6691,16.6667,1.6666,133.3332
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.1483332,18.3333,10.8000,7.5333,15.9000,7.5333,7.5358,16.6667,18.3358,16.6667,-1.6667,148.3332
dwm.exe,1100,0x0000020F00AA1230,DXGI,1,0,0,Hardware: Legacy Flip,1.1636690,50.0001,1.0000,49.0001,50.0001,49.0001,2.0000,50.0001,3.0000,50.0001,0.0000,150.0003
";

/// `text` with the field of column `name` on (1-based) line `line` replaced by `value`.
fn with_field(text: &str, line: usize, name: &str, value: &str) -> String {
    let index = text
        .lines()
        .next()
        .unwrap()
        .split(',')
        .position(|field| field == name)
        .unwrap();
    text.lines()
        .enumerate()
        .map(|(number, row)| {
            if number + 1 != line {
                return row.to_owned();
            }
            let mut fields: Vec<&str> = row.split(',').collect();
            fields[index] = value;
            fields.join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}
