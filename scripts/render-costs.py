#!/usr/bin/env python3
"""Where a frame's time goes: runs `bench-render` on the whole frame and with each part of
it left out (`--without`), and prints a Markdown table: the frame's median, what leaving
the part out saved, and the frame in floors (over the clear-only frame of the same run).

    scripts/render-costs.py [--bin BIN] [--repeat N] [-- BENCH_RENDER_OPTIONS...]

BIN defaults to target/release/timestep-lab; options after `--` go to every run (e.g.
`-- --panes 6 --msaa 1`), 300 frames unless they say otherwise. Each case runs N times
(default 3), the cases taking turns so a slow minute of a shared machine spreads over all
of them; a figure is the median of its runs. A part's cost is a difference of two such
figures: read it as no better than the spread the table prints.
"""

import argparse
import json
import statistics
import subprocess
import sys

SCENE = "grid,sphere,ghost,trail,props,coil"
CASES = [
    ("nothing", None),
    ("grid", "grid"),
    ("sphere", "sphere"),
    ("ghost", "ghost"),
    ("trail", "trail"),
    ("props", "props"),
    ("coil", "coil"),
    ("every scene part", SCENE),
    ("panel", "panel"),
    ("timeline", "timeline"),
    ("ui", "ui"),
    ("every scene part and the UI", SCENE + ",ui"),
]


def main() -> int:
    argv = sys.argv[1:]
    passed = []
    if "--" in argv:
        at = argv.index("--")
        argv, passed = argv[:at], argv[at + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="target/release/timestep-lab")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if "--frames" not in passed:
        passed = ["--frames", "300", *passed]

    runs = {label: [] for label, _ in CASES}
    for _ in range(args.repeat):
        for label, parts in CASES:
            command = [args.bin, "bench-render", "--json", *passed]
            if parts:
                command += ["--without", parts]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                sys.stderr.write(f"{' '.join(command)} failed:\n{done.stderr}")
                return 1
            report = json.loads(done.stdout)
            runs[label].append((report["frame_ms_median"], report["clear_only_ms_median"]))

    def figure(label):
        frames = [frame for frame, _ in runs[label]]
        floors = [floor for _, floor in runs[label]]
        return statistics.median(frames), statistics.median(floors), max(frames) - min(frames)

    whole, floor, spread = figure("nothing")
    print(f"bench-render {' '.join(passed)}, {args.repeat} run(s) each")
    print()
    print("| left out | frame (median) | saved | in floors | spread of runs |")
    print("|---|---|---|---|---|")
    for label, _ in CASES:
        frame, floor, spread = figure(label)
        saved = "" if label == "nothing" else f"{whole - frame:.1f} ms"
        print(f"| {label} | {frame:.1f} ms | {saved} | {frame / floor:.0f} | {spread:.1f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
