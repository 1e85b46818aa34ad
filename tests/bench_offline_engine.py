"""Benchmark of the rules engine in the referee's phone (prints figures; not a test).

    python tests/bench_offline_engine.py [--runs 5] [--moves 200]

Headless Chromium (Debian's, as the browser tests) loads static/console/engine.js's worker from a local
server: Pyodide (the pinned files tests/venv.sh fetched) and the rules zip the server serves
(tournament/console/engine_files.py). Each run is a new browser context (no compiled WebAssembly kept):
the engine's start, then a simulated game's moves applied one by one as the offline console applies them
(the game as JSON to the worker and back, the console's screen with it); then the page opened again in
the same context, whose engine starts from the one the first kept. Prints the medians over the runs: the
start, the next start, and a move's time (median and 95th percentile within each run). The same moves on the
server's Python (tournament/console/view_model/phone.py, this process) beside them.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")

from playwright.sync_api import sync_playwright  # noqa: E402

from rules.record import parse_record  # noqa: E402
from rules.replay import start_state  # noqa: E402
from rules.simulate import simulate  # noqa: E402
from rules.snapshot import dump_state  # noqa: E402
from tournament.console import pyodide  # noqa: E402
from tournament.console.engine_files import phone_zip  # noqa: E402
from tournament.console.view_model import phone  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PAGE = """<!doctype html><meta charset="utf-8"><title>engine</title>
<script type="module">
import { engineOf } from "./engine.js";
window.consoleEngine = engineOf({ worker: "engine-worker.js", pyodide: "pyodide/", rules: "rules.zip" });
</script>"""
PLAY = """async ([game, events]) => {
  const began = performance.now();
  await window.consoleEngine.start();
  const start = performance.now() - began;
  const moves = [];
  for (const event of events) {
    const t = performance.now();
    const out = await window.consoleEngine.apply(game, [event]);
    moves.push(performance.now() - t);
    if (!out.ok) { throw new Error(JSON.stringify(out.error)); }
    game = out.game;
  }
  return { start, moves };
}"""


#: Wait until the engine is kept in the phone (static/console/engine-worker.js), at most a minute.
KEPT = """async () => {
  const given = performance.now() + 60000;
  const kept = () => new Promise((resolve) => {
    const opening = indexedDB.open("console-engine", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("pyodide-snapshots");
    opening.onsuccess = () => {
      const keys = opening.result.transaction("pyodide-snapshots").objectStore("pyodide-snapshots").count();
      keys.onsuccess = () => { opening.result.close(); resolve(keys.result > 0); };
    };
  });
  while (!(await kept()) && performance.now() < given) { await new Promise((r) => setTimeout(r, 50)); }
}"""


def site() -> Path:
    folder = Path(tempfile.mkdtemp())
    (folder / "index.html").write_text(PAGE)
    for name in ("engine.js", "engine-worker.js"):
        shutil.copy(ROOT / "static" / "console" / name, folder / name)
    shutil.copytree(ROOT / "static" / pyodide.folder_name(), folder / "pyodide")
    (folder / "rules.zip").write_bytes(phone_zip()[0])
    return folder


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def end_headers(self) -> None:
        if self.path.endswith("rules.zip"):  # the rules' version, as the server sends it (the kept key)
            self.send_header("ETag", phone_zip()[1])
        super().end_headers()


def serve(folder: Path) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    record = simulate("classic", "classic-pl", 4, seed=5)
    events = record["events"][: args.moves]
    start = start_state(parse_record(record))
    game = {"state": dump_state(start), "ledger": {p.id: [0, 0] for p in start.players}}
    server = serve(site())
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    starts, kept_starts, how, medians, p95s = [], [], [], [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(args.runs):
            context = browser.new_context()
            page = context.new_page()
            page.goto(url)
            out = page.evaluate(PLAY, [game, events])
            starts.append(out["start"])
            medians.append(statistics.median(out["moves"]))
            p95s.append(p95(out["moves"]))
            page.evaluate(KEPT)  # the engine kept (in the background after the first start)
            page.goto(url)  # the phone's next console: the kept engine restored
            began = time.perf_counter()
            how.append(page.evaluate("() => window.consoleEngine.start()"))
            kept_starts.append((time.perf_counter() - began) * 1000)
            context.close()
        browser.close()
    server.shutdown()
    here = []
    text = json.dumps(game)
    for event in events:
        t = time.perf_counter()
        answer = json.loads(phone.apply(text, json.dumps([event])))
        here.append((time.perf_counter() - t) * 1000)
        text = json.dumps(answer["game"])
    runs = ", ".join(f"{s:.0f}" for s in starts)
    print(f"{len(events)} moves, {args.runs} runs (a new browser context each)")
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(f"engine start in the browser: median {statistics.median(starts):.0f} ms (runs: {runs})")
    kept = ", ".join(f"{s:.0f} {h}" for s, h in zip(kept_starts, how, strict=True))
    print(f"the next start, the engine kept: median {statistics.median(kept_starts):.0f} ms (runs: {kept})")
    median, high = statistics.median(medians), statistics.median(p95s)
    print(f"a move in the browser: median {median:.1f} ms, p95 {high:.1f} ms")
    print(f"the same move in this process: median {statistics.median(here):.2f} ms, p95 {p95(here):.2f} ms")


if __name__ == "__main__":
    main()
