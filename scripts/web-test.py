"""The lab on a page, tested in a real browser: Debian's headless Chromium, driven through
chromedriver's W3C WebDriver API, against the site scripts/web build wrote (served as
scripts/web serve does), on WebGPU (SwiftShader) and on WebGL2 (ANGLE on SwiftShader).

Each case loads the page with a query, waits for its #summary (or #error), and checks what
it says; every case also checks that the console holds no panic. Run by `scripts/web test`
(and .ci/run); python3 scripts/web-test.py SITE_DIR runs it directly. Exits 1 on a failure,
naming the case and what the page said."""

import base64
import json
import os
import shutil
import socket
import struct
import zlib
import subprocess
import sys
import tempfile
import time
import urllib.request

TIMEOUT_S = 120


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Browser:
    """One chromedriver and a Chromium session per case."""

    def __init__(self):
        self.port = free_port()
        self.driver = subprocess.Popen(
            ["chromedriver", f"--port={self.port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                self.call("GET", "/status")
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("chromedriver did not start")

    def call(self, method, path, body=None, timeout=60):
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read())

    def wait_running(self, session):
        """Waits until the lab runs (the page enables its file picker then)."""
        enabled = "return !document.getElementById('open').disabled;"
        deadline = time.time() + TIMEOUT_S
        while not self.script(session, enabled):
            if time.time() > deadline:
                raise RuntimeError("the page's file picker was never enabled")
            time.sleep(0.5)

    def open_file(self, session, path):
        """Opens the file at `path` with the page's file picker, once the lab runs."""
        self.wait_running(session)
        found = self.call(
            "POST", f"/session/{session}/element", {"using": "css selector", "value": "#open"}
        )["value"]
        element = next(iter(found.values()))
        self.call("POST", f"/session/{session}/element/{element}/value", {"text": path})

    def hide(self, session, seconds):
        """Hides the page's tab for `seconds` once the lab runs (another tab shown in its
        place: the browser runs no frames for it meanwhile), then shows it again."""
        self.wait_running(session)
        shown = self.call("GET", f"/session/{session}/window")["value"]
        other = self.call("POST", f"/session/{session}/window/new", {"type": "tab"})
        self.call("POST", f"/session/{session}/window", {"handle": other["value"]["handle"]})
        time.sleep(seconds)
        self.call("DELETE", f"/session/{session}/window")
        self.call("POST", f"/session/{session}/window", {"handle": shown})

    def script(self, session, script):
        return self.call(
            "POST", f"/session/{session}/execute/sync", {"script": script, "args": []}
        )["value"]

    def run(self, url, webgpu=True, opened=None, webgl=True, prepare=None, inspect=None,
            hide_s=None):
        """Loads `url` (and opens the file at path `opened` on it, or hides its tab for
        `hide_s` seconds once the lab runs); returns (summary, error, console lines) once
        the page has said one. `prepare`, a (URL, script) pair, is
        loaded and run first in the same browser, so the page finds what it left (its local
        storage); `inspect`, a script, runs on the page once it has said its summary or
        error, its value left in `self.inspected`. The recording the page offered for
        download, if any, is left in `self.recording` (its text)."""
        arguments = ["--headless=new", "--no-sandbox", "--window-size=1300,1000"]
        if webgpu:
            # WebGPU on SwiftShader, with ANGLE and Vulkan on SwiftShader too: without them
            # Chromium 156 loses the device two frames after it first draws into a canvas
            # (the canvas stays blank, every readback is refused; docs/web.md).
            arguments += [
                "--enable-unsafe-webgpu",
                "--enable-unsafe-swiftshader",
                "--use-angle=swiftshader",
                "--use-vulkan=swiftshader",
                "--enable-features=Vulkan",
            ]
        else:
            # No WebGPU: the page falls back to WebGL2 by itself.
            arguments += ["--disable-features=WebGPU"]
        if not webgl:
            arguments += ["--disable-webgl"]
        session = self.call(
            "POST",
            "/session",
            {
                "capabilities": {
                    "alwaysMatch": {
                        "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": arguments},
                        "goog:loggingPrefs": {"browser": "ALL"},
                    }
                }
            },
        )["value"]["sessionId"]
        try:
            if prepare:
                self.call("POST", f"/session/{session}/url", {"url": prepare[0]})
                self.script(session, prepare[1])
            self.call("POST", f"/session/{session}/url", {"url": url})
            if opened:
                self.open_file(session, opened)
            if hide_s:
                self.hide(session, hide_s)
            read = (
                "const text = (id) => { const e = document.getElementById(id);"
                " return e.hidden ? null : e.textContent; };"
                " const shot = document.getElementById('screenshot');"
                " const first = performance.getEntriesByName('timestep-lab: first frame');"
                " return [text('summary'), text('error'), shot.hidden ? null : shot.src,"
                " first.length ? first[0].startTime : null];"
            )
            deadline = time.time() + TIMEOUT_S
            summary = error = shot = self.first_frame_ms = None
            while time.time() < deadline:
                summary, error, shot, self.first_frame_ms = self.script(session, read)
                if summary or error:
                    break
                time.sleep(0.5)
            self.inspected = self.script(session, inspect) if inspect else None
            logs = self.call("POST", f"/session/{session}/se/log", {"type": "browser"})
            console = [entry.get("message", "") for entry in logs.get("value", [])]
            self.shot = shot
            # The download's link is a blob URL the page made: read it on the page.
            fetched = (
                "const done = arguments[arguments.length - 1];"
                " const link = document.getElementById('recording-download');"
                " if (link.hidden) { done(null); } else"
                " { fetch(link.href).then((r) => r.text()).then(done, () => done(null)); }"
            )
            self.recording = self.call(
                "POST", f"/session/{session}/execute/async", {"script": fetched, "args": []}
            )["value"]
            return summary, error, console
        finally:
            self.call("DELETE", f"/session/{session}")

    def close(self):
        self.driver.kill()


def png_parts(url):
    """The PNG in data URL `url` as (width, height, bit depth, colour type, its pixel rows
    inflated, each after its filter byte), or None where `url` holds no PNG."""
    prefix = "data:image/png;base64,"
    if not url or not url.startswith(prefix):
        return None
    png = base64.b64decode(url[len(prefix) :])
    width, height, depth, kind = struct.unpack(">IIBB", png[16:26])
    data, at = b"", 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        if png[at + 4 : at + 8] == b"IDAT":
            data += png[at + 8 : at + 8 + length]
        at += 12 + length
    return width, height, depth, kind, zlib.decompress(data)


def png_facts(url):
    """The size of the PNG in data URL `url`, and how many distinct byte values its pixel
    data holds (a blank frame holds a handful, a drawn one hundreds)."""
    parts = png_parts(url)
    if parts is None:
        return None
    width, height, _, _, raw = parts
    return (width, height), len(set(raw))


def png_pixel(url, x, y):
    """The RGBA of pixel (x, y) in the 8-bit RGBA PNG in data URL `url` (its rows unfiltered
    as the PNG specification says), or None where the PNG is not such an image."""
    parts = png_parts(url)
    if parts is None:
        return None
    width, height, depth, kind, raw = parts
    if (depth, kind) != (8, 6) or not (0 <= x < width and 0 <= y < height):
        return None
    stride, previous = width * 4, bytearray(width * 4)
    for row in range(y + 1):
        start = row * (stride + 1)
        method, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - 4] if i >= 4 else 0
            up = previous[i]
            up_left = previous[i - 4] if i >= 4 else 0
            if method == 1:
                line[i] = (line[i] + left) & 255
            elif method == 2:
                line[i] = (line[i] + up) & 255
            elif method == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif method == 4:
                guess = left + up - up_left
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                           (abs(guess - up_left), 2, up_left))
                line[i] = (line[i] + near[2]) & 255
        previous = line
    return tuple(previous[x * 4 : x * 4 + 4])


def line(summary, name):
    for text in (summary or "").splitlines():
        if text.startswith(name + ": "):
            return text[len(name) + 2 :]
    return None


def main():
    site = sys.argv[1] if len(sys.argv) > 1 else "target/web"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "scripts/web-serve.py", site, str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/"
    browser = Browser()
    failures = []

    def case(name, query, check, webgpu=True, opened=None, webgl=True, prepare=None,
             inspect=None, hide_s=None):
        started = time.time()
        if prepare:
            prepare = (base + prepare[0], prepare[1])
        summary, error, console = browser.run(base + query, webgpu, opened, webgl, prepare,
                                              inspect, hide_s)
        problems = check(summary, error)
        panics = [text for text in console if "panicked" in text]
        if panics:
            problems.append(f"the console holds a panic: {panics[0][:300]}")
        verdict = "ok" if not problems else "FAILED"
        fps = line(summary, "fps")
        measured = f", {fps}" if fps else ""
        if browser.first_frame_ms is not None:
            measured += f", first frame at {browser.first_frame_ms:.0f} ms"
        print(f"{verdict}: {name} ({query}, {time.time() - started:.0f} s{measured})", flush=True)
        if problems:
            failures.append(name)
            for problem in problems:
                print(f"    {problem}")
            print(f"    summary: {summary!r}\n    error: {error!r}")
        return summary

    def ran(frames, adapter_backend):
        def check(summary, error):
            problems = []
            if error:
                problems.append(f"the page showed an error: {error}")
            if line(summary, "frames") != str(frames):
                problems.append(f"no 'frames: {frames}' line")
            adapter = line(summary, "adapter") or ""
            if f"({adapter_backend}," not in adapter:
                problems.append(f"the adapter is not {adapter_backend}: {adapter!r}")
            if not (line(summary, "fps") or "").split(" ")[0]:
                problems.append("no fps line")
            if not line(summary, "state hashes"):
                problems.append("no state hashes")
            return problems

        return check

    try:
        def measured_refresh(summary, error):
            # Headless Chromium runs animation frames at 60 Hz: the page measures the
            # refresh from their stamps, being told none. A page slower than the screen
            # (SwiftShader draws a few frames a second here) is given frames a whole number
            # of refreshes apart, never one: it measures 60/n Hz, and says it is the rate of
            # the browser's frames.
            problems = ran(120, "BrowserWebGpu")(summary, error)
            refresh = line(summary, "model refresh") or ""
            hz = float(refresh.split(" ")[0] or 0)
            whole = hz > 0 and abs(60 / hz - round(60 / hz)) <= 0.08 * round(60 / hz)
            if not whole or "the rate of the browser's frames" not in refresh:
                problems.append(f"the refresh was not measured from the frames: {refresh!r}")
            fps = float((line(summary, "fps") or "0").split(" ")[0])
            if fps >= 55 and not 55 <= hz <= 65:
                problems.append(f"a page at {fps} fps measured {refresh!r}, not 60 Hz")
            return problems

        # A 640x400 canvas: at 1280x800 the page keeps 15 to 19 fps here, and where its
        # shortest frames span three refreshes (20 Hz) it takes no rhythm that slow for a
        # screen's (page/clock.rs), so the check would hang on the machine's load.
        case("the scene runs on WebGPU", "?frames=120&width=640&height=400", measured_refresh)
        case("the scene runs on WebGL2", "?frames=60", ran(60, "Gl"), webgpu=False)
        case("backend=gl picks WebGL2", "?backend=gl&frames=60", ran(60, "Gl"))

        def ten_panes(frames, backend):
            def check(summary, error):
                problems = ran(frames, backend)(summary, error)
                panes = (line(summary, "panes") or "").split(",")
                if len(panes) != 10:
                    problems.append(f"{len(panes)} panes, not 10: {panes}")
                return problems

            return check

        case("the ten-pane comparison runs", "?compare=all&frames=60",
             ten_panes(60, "BrowserWebGpu"))
        # WebGL2 on SwiftShader draws ten panes at 4 to 11 fps here (docs/web.md): 20 frames.
        case("the ten-pane comparison runs on WebGL2", "?backend=gl&compare=all&frames=20",
             ten_panes(20, "Gl"))

        def spiral(expected, frames, backend):
            def check(summary, error):
                # 30 ms a step at 50 Hz: every frame asks for more steps than it has time
                # for. The clamp (the default guard, 250 ms) stops the spiral; without it
                # (max-frame-time=0) the loop spirals, and the page must stay alive either way.
                problems = ran(frames, backend)(summary, error)
                if line(summary, "spiral") != expected:
                    problems.append(f"spiral: {line(summary, 'spiral')!r}, not {expected!r}")
                return problems

            return check

        case("a spiral from step-cost is stopped by the clamp", "?step-cost=30&frames=90",
             spiral("no", 90, "BrowserWebGpu"))
        case("without the clamp it spirals, the page alive",
             "?step-cost=30&max-frame-time=0&frames=90", spiral("yes", 90, "BrowserWebGpu"))
        # A frame of the spiral takes 0.3 to 0.4 s on WebGL2: 20 frames, past the clamp's
        # first hold (about the 8th) and the unguarded load's freezing.
        case("a spiral from step-cost is stopped by the clamp on WebGL2",
             "?backend=gl&step-cost=30&frames=20", spiral("no", 20, "Gl"))
        case("without the clamp it spirals on WebGL2, the page alive",
             "?backend=gl&step-cost=30&max-frame-time=0&frames=20", spiral("yes", 20, "Gl"))

        def chapter_passes(frames, backend):
            def check(summary, error):
                problems = ran(frames, backend)(summary, error)
                tour = line(summary, "tour") or ""
                if ": check passed (" not in tour:
                    problems.append(f"the chapter's check did not pass: {tour!r}")
                return problems

            return check

        def screenshot(backend):
            def check(summary, error):
                problems = ran(30, backend)(summary, error)
                facts = png_facts(browser.shot)
                if facts is None:
                    problems.append("no PNG in #screenshot")
                elif facts[0] != (1280, 800) or facts[1] < 64:
                    problems.append(f"the screenshot is {facts[0]} with {facts[1]} byte values")
                # The scene's clear colour, linear (0.06, 0.07, 0.09), encoded for the screen
                # as (69, 74, 84), above the grid's horizon. A WebGPU canvas offers no sRGB
                # format: drawn straight into it, the scene came out as (15, 18, 23).
                background = png_pixel(browser.shot, 1100, 40)
                if background is None or any(
                    abs(got - want) > 3 for got, want in zip(background, (69, 74, 84, 255))
                ):
                    problems.append(f"the scene's background is {background}, not (69, 74, 84)")
                if "screenshot: timestep-lab.png (1280x800" not in (summary or ""):
                    problems.append("the summary names no screenshot")
                return problems

            return check

        case("the last frame is read back as a PNG on WebGPU", "?frames=30&screenshot=1",
             screenshot("BrowserWebGpu"))
        case("the last frame is read back as a PNG on WebGL2", "?frames=30&screenshot=1",
             screenshot("Gl"), webgpu=False)
        case("a tour chapter's live check passes", "?tour=1&frames=300",
             chapter_passes(300, "BrowserWebGpu"))
        # The chapter judges after 1.5 s of running: 60 frames last 3 s or more at WebGL2's
        # one-pane rates here (6 to 19 fps).
        case("a tour chapter's live check passes on WebGL2", "?backend=gl&tour=1&frames=60",
             chapter_passes(60, "Gl"))

        throttled = (
            "const said = document.getElementById('throttled');"
            " return said.hidden ? null : said.textContent;"
        )

        def hidden_tab(summary, error):
            # The guard is off: the page must not say the guards clamped the first frame.
            problems = ran(240, "BrowserWebGpu")(summary, error)
            said = browser.inspected or ""
            if not said.startswith("The tab was hidden for ") or "no guard is on" not in said:
                problems.append(f"#throttled does not say the tab was hidden, unguarded: {said!r}")
            return problems

        case("a hidden tab is said, with the guards in effect", "?max-frame-time=0&frames=240",
             hidden_tab, inspect=throttled, hide_s=1)

        # Settings a visit before left in local storage (the page's query refused, so
        # that visit ran nothing and kept nothing itself).
        kept = 'strategy = "variable"\n'
        keep = ("?hz=5000", f"localStorage.setItem('timestep-lab.settings', {json.dumps(kept)});")
        stored = "return localStorage.getItem('timestep-lab.settings');"

        def kept_settings(summary, error):
            problems = ran(30, "BrowserWebGpu")(summary, error)
            if line(summary, "panes") != "variable":
                problems.append(f"the kept strategy was not read: {line(summary, 'panes')!r}")
            if not (browser.inspected or "").startswith("# timestep-lab's settings"):
                problems.append(f"the settings were not kept again: {browser.inspected!r}")
            return problems

        case("the settings kept in local storage are read and kept again", "?frames=30",
             kept_settings, prepare=keep, inspect=stored)

        def no_config(summary, error):
            problems = ran(30, "BrowserWebGpu")(summary, error)
            if line(summary, "panes") == "variable":
                problems.append("no-config read the kept settings")
            if browser.inspected != kept:
                problems.append(f"no-config changed the kept settings: {browser.inspected!r}")
            return problems

        case("no-config neither reads nor writes the kept settings", "?no-config&frames=30",
             no_config, prepare=keep, inspect=stored)

        def refused(summary, error):
            problems = []
            if summary:
                problems.append("the page ran")
            for part in ["--hz", "5000", "1 to 1000"]:
                if part not in (error or ""):
                    problems.append(f"the message does not name {part!r}")
            return problems

        # A file dropped on a page whose lab did not start: the browser must not open it
        # in the page's place, and the page says why nothing is replayed.
        drop = (
            "const files = new DataTransfer();"
            " files.items.add(new File(['16.7\\n'], 'run.csv'));"
            " const drop = new DragEvent('drop', {dataTransfer: files, cancelable: true,"
            " bubbles: true});"
            " document.body.dispatchEvent(drop);"
            " return [drop.defaultPrevented, document.getElementById('error').textContent];"
        )

        def refused_and_no_drop(summary, error):
            problems = refused(summary, error)
            prevented, said = browser.inspected or (False, "")
            expected = "run.csv: not replayed: the lab did not start"
            if not prevented or "--hz" not in said or expected not in said:
                problems.append(f"a dropped file was not refused in #error: {said!r}")
            return problems

        case("a bad parameter shows its message, and a dropped file is not opened", "?hz=5000",
             refused_and_no_drop, inspect=drop)

        def needs_a_gpu_api(summary, error):
            expected = "this browser has neither WebGPU nor WebGL2"
            if summary or expected not in (error or ""):
                return [f"the page did not say {expected!r}"]
            return []

        case("a browser with neither WebGPU nor WebGL2 is told which it needs", "?frames=30",
             needs_a_gpu_api, webgpu=False, webgl=False)

        def refused_on_page(summary, error):
            if summary or "replay: not on a page" not in (error or ""):
                return ["replay was not refused as a page's"]
            return []

        case("what names a file is refused", "?replay=x.csv", refused_on_page)

        recorded = {}

        def downloaded(summary, error):
            problems = ran(90, "BrowserWebGpu")(summary, error)
            text = browser.recording or ""
            rows = [row for row in text.splitlines() if row and not row.startswith("#")]
            if not text.startswith("# timestep-lab session recording\n"):
                problems.append(f"no recording was offered for download: {text[:80]!r}")
            said = line(summary, "recorded") or ""
            if not said.endswith(" frames to run.csv") or f"{len(rows) - 1} frames" not in said:
                problems.append(f"the summary's 'recorded' line ({said!r}) is not the "
                                f"download's {len(rows) - 1} rows")
            recorded.update(text=text, frames=said.split(" ")[0],
                            hashes=line(summary, "state hashes"))
            return problems

        case("a recording is downloaded", "?compare=accumulator,interpolated&step-cost=2"
             "&frames=90&record=run.csv", downloaded)

        files = tempfile.mkdtemp(prefix="timestep-lab-web-test-")
        session = os.path.join(files, "run.csv")
        with open(session, "w", encoding="utf-8") as out:
            out.write(recorded.get("text") or "")

        def replayed(summary, error):
            problems = []
            if error:
                problems.append(f"the page showed an error: {error}")
            frames = recorded.get("frames")
            if line(summary, "replayed") != f"{frames} of {frames} frames":
                problems.append(f"replayed: {line(summary, 'replayed')!r}, not all {frames}")
            if line(summary, "state hashes") != recorded.get("hashes"):
                problems.append(f"the replay ended in {line(summary, 'state hashes')!r}, the "
                                f"recording in {recorded.get('hashes')!r}")
            return problems

        case("a recording opened on the page replays to the state it recorded",
             "?quit-after-replay", replayed, opened=session)

        bad = os.path.join(files, "bad.txt")
        with open(bad, "w", encoding="utf-8") as out:
            out.write("16.7\n16.7\nsixteen\n")

        def refused_file(summary, error):
            expected = 'bad.txt:3: frame time "sixteen" is not a number'
            if summary or expected not in (error or ""):
                return [f"the file was not refused with {expected!r}"]
            return []

        case("a file that is no trace is refused with its line", "", refused_file,
             opened=bad)
        shutil.rmtree(files, ignore_errors=True)
    finally:
        browser.close()
        server.kill()
    if failures:
        print(f"{len(failures)} browser case(s) failed: {', '.join(failures)}")
        sys.exit(1)
    print("every browser case passed")


if __name__ == "__main__":
    main()
