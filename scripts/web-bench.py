"""The lab's frame rate on a page, measured in Debian's headless Chromium as the browser tests
run it (scripts/web-test.py's Browser: WebGPU on SwiftShader, or WebGL2), next to the
browser's floor: web/floor.html, a WebGPU canvas of the same size that is only cleared each
frame. Each case runs RUNS times (default 3) in turn, and the median of its rates is
printed beside every run's.

Run by `scripts/web bench [RUNS]` on the site scripts/web build wrote; python3
scripts/web-bench.py SITE_DIR [RUNS] runs it directly. Exits 1 when a page says no fps
(an error, or no summary within the browser tests' timeout)."""

import importlib.util
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, page and query, WebGPU): the lab as docs/web.md measures it, and the floor.
CASES = [
    ("lab, WebGPU, 1 pane", "?no-config&frames=300", True),
    ("lab, WebGPU, 10 panes", "?no-config&compare=all&frames=120", True),
    ("lab, WebGL2, 1 pane", "?no-config&frames=300", False),
    ("lab, WebGL2, 10 panes", "?no-config&compare=all&frames=120", False),
    ("floor, WebGPU, opaque canvas", "floor.html?frames=300", True),
    ("floor, WebGPU, premultiplied canvas", "floor.html?frames=300&alpha=premultiplied", True),
]


def browser_module():
    spec = importlib.util.spec_from_file_location("web_test", os.path.join(HERE, "web-test.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: web-bench.py SITE_DIR [RUNS]", file=sys.stderr)
        return 2
    site = sys.argv[1]
    runs_text = sys.argv[2] if len(sys.argv) == 3 else "3"
    if not runs_text.isdigit() or not 1 <= int(runs_text) <= 20:
        print(f"web-bench.py: RUNS {runs_text!r} is not a whole number from 1 to 20",
              file=sys.stderr)
        return 2
    runs = int(runs_text)
    for page in ("index.html", "floor.html"):
        if not os.path.isfile(os.path.join(site, page)):
            print(f"web-bench.py: no {page} in {site}/: run scripts/web build first",
                  file=sys.stderr)
            return 2
    web_test = browser_module()
    port = web_test.free_port()
    server = subprocess.Popen(
        [sys.executable, os.path.join(HERE, "web-serve.py"), site, str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    browser = web_test.Browser()
    rates = {name: [] for name, _, _ in CASES}
    failed = False
    try:
        time.sleep(0.5)
        # Cases take turns, so that a change in the machine's load falls on all of them.
        for run in range(1, runs + 1):
            for name, page, webgpu in CASES:
                summary, error, _ = browser.run(f"http://127.0.0.1:{port}/{page}", webgpu=webgpu)
                fps = web_test.line(summary, "fps")
                if fps is None:
                    print(f"run {run}, {name}: no fps ({error or 'no summary'})", flush=True)
                    failed = True
                    continue
                rates[name].append(float(fps.split(" ")[0]))
                print(f"run {run}, {name}: {fps}", flush=True)
    finally:
        browser.close()
        server.kill()
    print(f"\nframes per second, {runs} run(s) each, 1280x800 canvas:")
    for name, _, _ in CASES:
        measured = rates[name]
        if measured:
            each = " / ".join(f"{rate:.1f}" for rate in measured)
            print(f"  {name:38} median {statistics.median(measured):5.1f}  ({each})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
