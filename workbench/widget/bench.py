"""``python -m workbench.widget.bench``: the general board's first-board time and click latency, per game.

First board: ``Board(game)`` built in a ready kernel, its first view computed and serialised (what the page
receives before it draws). Click: one page message handled (a click, a button or Undo/Redo) and the new view
serialised, the median and the worst of ``--clicks`` messages along a random game. Figures, not a timed
test: the targets (first board under 1 s, clicks under 150 ms on 2 cores) are read off the printout.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any


def boards(also: list[str]) -> list[tuple[str, str | None]]:
    """Every registered game with its default rules, then each ``--also GAME[@RULES]`` (a heavy variant, an
    OpenSpiel game): the benchmark names no game itself."""
    from workbench.games import names

    out: list[tuple[str, str | None]] = [(n, None) for n in names()]
    for item in also:
        game, _, rules = item.partition("@")
        out.append((game, rules or None))
    return out


def _message(board: Any, rng: random.Random) -> dict[str, Any]:
    """The next page message of a person playing at random: a lit cell, a button, or a step back and forth."""
    v = board.view
    roll = rng.random()
    if v.get("can_undo") and roll < 0.1:
        return {"type": "undo"}
    if v.get("can_redo") and roll < 0.15:
        return {"type": "redo"}
    if v.get("lit") and roll < 0.75:
        return {"type": "click", "cell": rng.choice(v["lit"])}
    if v.get("buttons"):
        return {"type": "choose", "index": rng.randrange(len(v["buttons"]))}
    if v.get("lit"):
        return {"type": "click", "cell": rng.choice(v["lit"])}
    return {"type": "cancel"}


def bench(game: str, rules: str | None, clicks: int, seed: int) -> dict[str, Any]:
    from workbench.widget.board import GameBoard

    t0 = time.perf_counter()
    b = GameBoard(game, rules=rules, seed=seed)
    size = len(json.dumps(b.view)) + len(json.dumps(b.geometry))
    first = time.perf_counter() - t0
    rng = random.Random(seed)
    times = []
    for _ in range(clicks):
        if b.view.get("over"):
            b._on_msg(b, {"type": "undo"}, [])
        msg = _message(b, rng)
        t = time.perf_counter()
        b._on_msg(b, msg, [])
        len(json.dumps(b.view))
        times.append(time.perf_counter() - t)
    return {"game": game + (f" ({rules})" if rules else ""),
            "first_ms": 1000 * first, "first_kb": size / 1024, "median_ms": 1000 * statistics.median(times),
            "worst_ms": 1000 * max(times), "clicks": len(times)}


CHROMIUM = "/usr/bin/chromium"


def page_bench(clicks: int, games: list[tuple[str, str | None]]) -> None:
    """In a real page: the served board (``make play``'s Voila settings, ``workbench.serving``) on a one-board
    notebook, Debian's Chromium (loopback only). First board = from the kernel running the notebook's first cell
    (its clock, written to a file) to the board drawn in the page; page = from the request to the board drawn;
    click = from a click on a lit cell (or a button) to the page's status or message changing."""
    import os
    import socket
    import subprocess
    import tempfile
    from pathlib import Path
    from urllib.parse import urlparse

    import nbformat
    from playwright.sync_api import sync_playwright

    from workbench import serving

    print(f"{'game (in a page)':44} {'first board':>12} {'page':>10} {'click median':>13} {'click worst':>12}")
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        for game, rules in games:
            stamp = Path(tmp) / "ready"
            stamp.unlink(missing_ok=True)
            nb = nbformat.v4.new_notebook()
            args = f"{game!r}" + (f", rules={rules!r}" if rules else "")
            nb.cells = [nbformat.v4.new_code_cell(f"import time\n_ = open({str(stamp)!r}, 'w').write(repr(time.time()))"),
                        nbformat.v4.new_code_cell(f"from workbench.widget import Board\nBoard({args})")]
            nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
            path = Path(tmp) / "bench.ipynb"
            nbformat.write(nb, path)
            with socket.socket() as sock:
                sock.bind(("127.0.0.1", 0))
                port = sock.getsockname()[1]
            server = subprocess.Popen(serving.voila_command(path, port, [f"--Voila.root_dir={tmp}"]), cwd=tmp,
                                      env=serving.voila_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      start_new_session=True)
            try:
                for _ in range(100):
                    try:
                        socket.create_connection(("127.0.0.1", port), timeout=1).close()
                        break
                    except OSError:
                        time.sleep(0.2)
                page = browser.new_page(viewport={"width": 1300, "height": 1000})
                page.route("**/*", lambda r: r.continue_() if urlparse(r.request.url).hostname == "127.0.0.1" else r.abort())
                asked = time.time()
                page.goto(f"http://127.0.0.1:{port}/", timeout=60_000, wait_until="commit")
                page.wait_for_function("() => document.querySelector('.gb-root .gb-svgbox svg, .gb-root .gb-observation')",
                                       timeout=120_000, polling=10)
                drawn = time.time()
                first = drawn - float(stamp.read_text())
                times = []
                for _ in range(clicks):
                    before = page.evaluate("() => document.querySelector('.gb-status').textContent + '|' + "
                                           "document.querySelector('.gb-message').textContent")
                    target = page.locator("polygon.gb-lit").first if page.locator("polygon.gb-lit").count() else \
                        page.locator(".gb-choice, .gb-card").first
                    if not target.count():
                        break
                    t = time.perf_counter()
                    target.click(force=True)
                    page.wait_for_function("(s) => (document.querySelector('.gb-status').textContent + '|' + "
                                           "document.querySelector('.gb-message').textContent) !== s", arg=before,
                                           polling=5, timeout=20_000)
                    times.append(time.perf_counter() - t)
                page.close()
                med = f"{1000 * statistics.median(times):10.0f} ms" if times else f"{'-':>13}"
                worst = f"{1000 * max(times):9.0f} ms" if times else f"{'-':>12}"
                print(f"{game + (f' ({rules})' if rules else ''):44} {1000 * first:10.0f} ms "
                      f"{1000 * (drawn - asked):8.0f} ms {med} {worst}")
            finally:
                os.killpg(server.pid, 15)
                server.wait(timeout=20)
        browser.close()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m workbench.widget.bench", description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--page", action="store_true", help="also in a real page: Voila and Debian's Chromium")
    ap.add_argument("--only", action="append", default=[], metavar="GAME",
                    help="time only these boards (a registered game's name, or an --also board's)")
    ap.add_argument("--also", action="append", default=[], metavar="GAME[@RULES]",
                    help="another board to time: a game under rule values (GAME@RULE=VALUE,...) or openspiel:NAME")
    args = ap.parse_args(argv)
    games = boards(args.also)
    if args.only:
        games = [(g, r) for g, r in games if g in args.only or f"{g}@{r}" in args.only]
    import anywidget  # noqa: F401 - the widget's import is part of a ready kernel, not of the first board

    print(f"{'game':44} {'first board':>12} {'view':>8} {'click median':>13} {'click worst':>12}")
    for game, rules in games:
        r = bench(game, rules, args.clicks, args.seed)
        print(f"{r['game']:44} {r['first_ms']:10.0f} ms {r['first_kb']:6.0f} kB {r['median_ms']:10.1f} ms "
              f"{r['worst_ms']:9.1f} ms")
    if args.page:
        page_bench(min(args.clicks, 10), games)


if __name__ == "__main__":
    main()
