"""``python -m workbench.widget.bench``: the board's first-board time and click latency, per game and click kind.

Figures, not a timed test: the targets (first board under 1 s after the kernel is ready, clicks under 150 ms on
2 cores) are read off the printout. Every figure is printed as the count, min, median and max of its repeats,
with the median's 95% interval (distribution-free, from order statistics) when there are at least 6, beside the
machine's load average and the CPU seconds spent, since the shared 2-core machine's wall times move with its load.

In process (a warm kernel: the board and every game imported, as ``make play``'s kernels are): first board =
``Board(game)`` built and its first view and geometry serialised (what the page receives before it draws);
click = one page message handled and the new view serialised as the patch the page receives (every part encoded,
the changed ones sent), along a random game. Click kinds: ``select`` (a cell that starts or extends a selection),
``play`` (a cell or button that plays an action), ``undo``, ``redo``. ``view``: the whole view's size and what a
click sends (its patch).

In a real page (``--page``): the served board (``make play``'s Voila settings, ``workbench.serving``) on a
one-board notebook in Debian's Chromium, loopback only. First board = from the kernel running the notebook's
first cell to the board drawn in the page; page = from the request to the board drawn; click = from the mouse
press on a lit cell or a button to the board painted again, by the page's own clock (``gbDrawn``: set at the end
of the page's draw, ``painted`` after the next frame); ``draw`` is the page script's share of it (its redraw) and
``paint`` the browser's (restyle, layout, paint); the rest is the message's trip to the kernel and back and the
kernel's work. CPU seconds: the server and its kernels, and the browser, over each board's loads and clicks.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import time
from collections.abc import Iterable
from typing import Any

KINDS = ("select", "play", "undo", "redo")
CHROMIUM = "/usr/bin/chromium"


def boards(also: list[str]) -> list[tuple[str, str | None]]:
    """Every registered game with its default rules, then each ``--also GAME[@RULES]`` (a heavy variant, an
    OpenSpiel game): the benchmark names no game itself."""
    from workbench.games import names

    out: list[tuple[str, str | None]] = [(n, None) for n in names()]
    for item in also:
        game, _, rules = item.partition("@")
        out.append((game, rules or None))
    return out


def label(game: str, rules: str | None) -> str:
    return game + (f" ({rules})" if rules else "")


def median_interval(xs: list[float]) -> tuple[float, float] | None:
    """The median's 95% interval from order statistics (at least 95% coverage for any distribution), or None
    when there are fewer than 6 values (min and max then cover it at under 97%)."""
    n = len(xs)
    if n < 6:
        return None
    s = sorted(xs)
    # the largest k with P(Binomial(n, 1/2) < k) <= 2.5%: the interval is the k-th smallest to the k-th largest
    k, tail = 0, 0.0
    while True:
        nxt = tail + math.comb(n, k) / 2 ** n
        if nxt > 0.025:
            break
        tail, k = nxt, k + 1
    k = max(k, 1)
    return s[k - 1], s[n - k]


def summary(xs: list[float], unit: str = "ms") -> str:
    """``n  min  median [95% interval]  max`` of the values (milliseconds unless told)."""
    if not xs:
        return f"{0:>4}  {'-':>8}  {'-':>8} {'':17}  {'-':>8}"
    ci = median_interval(xs)
    inner = f"[{ci[0]:.1f}-{ci[1]:.1f}]" if ci else "(n<6: no interval)"
    return f"{len(xs):>4}  {min(xs):6.1f} {unit}  {statistics.median(xs):6.1f} {unit} {inner:17}  {max(xs):6.1f} {unit}"


def mean_summary(xs: list[float], unit: str = "ms") -> str:
    """``n  mean [95% interval]``: for figures read on a coarse clock (a process's CPU seconds move in 10 ms ticks, so
    one click's is 0, 10 or 20 ms), whose mean over the clicks is exact where a median is not (normal interval)."""
    n = len(xs)
    if n < 2:
        return f"{n:>4}  mean {xs[0]:.1f} {unit} (n<2: no interval)" if xs else f"{0:>4}  -"
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(n)
    return f"{n:>4}  mean {mean:.1f} {unit} [{max(0.0, mean - half):.1f}-{mean + half:.1f}]"


def header(what: str) -> str:
    return f"{what:44} {'kind':8} {'   n':>4}  {'min':>9}  {'median':>9} {'[95% interval]':17}  {'max':>9}"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


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


def kind_of(msg: dict[str, Any], node_before: Any, node_after: Any) -> str | None:
    """The click kind of a handled message: undo and redo by name, a cell or button by whether it played."""
    if msg["type"] in ("undo", "redo"):
        return str(msg["type"])
    if msg["type"] in ("click", "choose"):
        return "play" if node_after != node_before else "select"
    return None


def first_board(game: str, rules: str | None, seed: int) -> tuple[float, int]:
    """Seconds to build the board and serialise what the page first receives, and its size in bytes."""
    from workbench.widget.board import GameBoard

    t0 = time.perf_counter()
    b = GameBoard(game, rules=rules, seed=seed)
    size = len(json.dumps(b.view)) + len(json.dumps(b.geometry))
    return time.perf_counter() - t0, size


def bench(game: str, rules: str | None, clicks: int, seed: int, repeats: int = 6) -> dict[str, Any]:
    """In process: first board over ``repeats`` builds, then ``clicks`` messages of a random game by kind."""
    from workbench.widget.board import GameBoard

    firsts, size = [], 0
    for r in range(repeats):
        sec, size = first_board(game, rules, seed + r)
        firsts.append(1000 * sec)
    b = GameBoard(game, rules=rules, seed=seed)
    rng = random.Random(seed)
    by_kind: dict[str, list[float]] = {k: [] for k in KINDS}
    cpu_kind: dict[str, list[float]] = {k: [] for k in KINDS}
    sizes, sent = [], []
    for _ in range(clicks):
        if b.view.get("over"):
            b._on_msg(b, {"type": "undo"}, [])
        msg = _message(b, rng)
        node = b.view.get("node")
        t, c = time.perf_counter(), time.process_time()
        b._on_msg(b, msg, [])
        took, cpu = time.perf_counter() - t, time.process_time() - c
        sizes.append(len(json.dumps(b.view)))
        sent.append(b.sent_chars)
        kind = kind_of(msg, node, b.view.get("node"))
        if kind:
            by_kind[kind].append(1000 * took)
            cpu_kind[kind].append(1000 * cpu)
    return {"board": label(game, rules), "first_ms": firsts, "first_kb": size / 1024, "clicks": by_kind, "cpu": cpu_kind,
            "view_kb": statistics.median(sizes) / 1024 if sizes else 0.0,
            "sent_kb": statistics.median(sent) / 1024 if sent else 0.0, "sent_max_kb": max(sent, default=0) / 1024}


def in_process(games: Iterable[tuple[str, str | None]], clicks: int, seed: int, repeats: int, warm: bool = True) -> None:
    from workbench import serving

    if warm:
        exec(serving.PREWARM, {})  # noqa: S102 - a warm kernel, as the served page's: the board and every game imported
    print(f"In process ({load()})")
    print(header("board (in process)"))
    cpu0 = time.process_time()
    for game, rules in games:
        r = bench(game, rules, clicks, seed, repeats)
        print(f"{r['board']:44} {'first':8} {summary(r['first_ms'])}   ({r['first_kb']:.0f} kB)")
        for kind in KINDS:
            if r["clicks"][kind]:
                print(f"{'':44} {kind:8} {summary(r['clicks'][kind])}")
                print(f"{'':44} {'  CPU':8} {summary(r['cpu'][kind])}")
        print(f"{'':44} {'view':8} median {r['view_kb']:.0f} kB a click; sent as a patch: median {r['sent_kb']:.1f} kB, "
              f"max {r['sent_max_kb']:.1f} kB")
    print(f"CPU: {time.process_time() - cpu0:.1f} s for the in-process part; {load()}")


# ---------------------------------------------------------------------------------------------------- in a page
DRAWN = ("(el) => { const d = el.gbDrawn; return d ? {seq: d.seq, ms: d.ms, at: d.at, painted: d.painted, "
         "down: window.__gbDown || 0} : null; }")


def _cpu(procs: list[Any]) -> float:
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except Exception:  # noqa: BLE001, S112 - a process that has gone (a kernel shut down) no longer counts
            continue
    return total


def page_bench(clicks: int, games: list[tuple[str, str | None]], seed: int, repeats: int) -> None:
    """The served board in Debian's Chromium: first board and page total over ``repeats`` page loads (each a fresh
    kernel), then ``clicks`` clicks by kind on the last load, with the page's own clock and its draw's share."""
    import socket
    import subprocess
    import tempfile
    from pathlib import Path
    from urllib.parse import urlparse

    import nbformat
    import psutil
    from playwright.sync_api import sync_playwright

    from workbench import serving

    if not Path(CHROMIUM).exists():
        print(f"In a page: skipped, {CHROMIUM} is not installed (make chromium)")
        return
    print(f"\nIn a page: Voila as `make play` serves it, Debian's Chromium ({load()})")
    print(header("board (in a page)"))
    me = psutil.Process()
    rng = random.Random(seed)
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        for game, rules in games:
            stamp = Path(tmp) / "ready"
            nb = nbformat.v4.new_notebook()
            args = f"{game!r}" + (f", rules={rules!r}" if rules else "") + f", seed={seed}"
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
            served = psutil.Process(server.pid)
            others = [p for p in me.children(recursive=True) if p.pid != server.pid]
            browser_cpu0 = _cpu(others)
            firsts, totals = [], []
            by_kind: dict[str, list[float]] = {k: [] for k in KINDS}
            cpu_kind: dict[str, list[float]] = {k: [] for k in KINDS}
            draws: list[float] = []
            renders: list[float] = []
            try:
                for _ in range(100):
                    try:
                        socket.create_connection(("127.0.0.1", port), timeout=1).close()
                        break
                    except OSError:
                        time.sleep(0.2)
                for rep in range(repeats):
                    stamp.unlink(missing_ok=True)
                    page = browser.new_page(viewport={"width": 1300, "height": 1000})
                    page.route("**/*", lambda r: r.continue_() if urlparse(r.request.url).hostname == "127.0.0.1"
                               else r.abort())
                    asked = time.time()
                    page.goto(f"http://127.0.0.1:{port}/", timeout=60_000, wait_until="commit")
                    page.wait_for_function("() => document.querySelector('.gb-root .gb-svgbox svg, .gb-root .gb-observation')",
                                           timeout=120_000, polling=5)
                    drawn = time.time()
                    firsts.append(1000 * (drawn - float(stamp.read_text())))
                    totals.append(1000 * (drawn - asked))
                    if rep == repeats - 1:
                        _page_clicks(page, clicks, rng, by_kind, draws, renders,
                                     lambda s=served: _cpu([s, *s.children(recursive=True)]), cpu_kind)
                    kernel_cpu = _cpu([served, *served.children(recursive=True)])
                    page.close()
            finally:
                os.killpg(server.pid, 15)
                server.wait(timeout=20)
            browser_cpu = _cpu([p for p in me.children(recursive=True) if p.pid != server.pid]) - browser_cpu0
            name = label(game, rules)
            print(f"{name:44} {'first':8} {summary(firsts)}")
            print(f"{'':44} {'page':8} {summary(totals)}")
            for kind in KINDS:
                if by_kind[kind]:
                    print(f"{'':44} {kind:8} {summary(by_kind[kind])}")
                    print(f"{'':44} {'  CPU':8} {mean_summary(cpu_kind[kind])}   (server and kernel, a click)")
            print(f"{'':44} {'draw':8} {summary(draws)}   (of the clicks: the page script's redraw)")
            print(f"{'':44} {'paint':8} {summary(renders)}   (of the clicks: the browser's restyle, layout, paint)")
            print(f"{'':44} CPU: server and kernels {kernel_cpu:.1f} s, browser {browser_cpu:.1f} s; {load()}")
        browser.close()


def _page_clicks(page: Any, clicks: int, rng: random.Random, by_kind: dict[str, list[float]], draws: list[float],
                 renders: list[float], cpu_now: Any = None, cpu_kind: dict[str, list[float]] | None = None) -> None:
    """``clicks`` gestures of a person playing at random: a lit cell, else a button or card; an undo and a redo now
    and then. Each is timed from the mouse press to the board painted again, by the page's clock, and (``cpu_now``)
    by the CPU seconds the server and its kernel spent meanwhile."""
    root = page.locator(".gb-root").first
    handle = root.element_handle()
    page.evaluate("() => document.addEventListener('pointerdown', () => { window.__gbDown = performance.now(); }, true)")
    for i in range(clicks):
        _settle(page, handle)
        node = page.evaluate("(el) => (el.querySelector('.gb-current') || {dataset: {}}).dataset.node || ''", handle)
        undo, redo = root.locator('.gb-btn[data-action="undo"]'), root.locator('.gb-btn[data-action="redo"]')
        lit = root.locator("polygon.gb-lit")
        kind = None
        if i % 6 == 4 and undo.is_enabled():
            target, kind = undo, "undo"
        elif i % 6 == 5 and redo.is_enabled():
            target, kind = redo, "redo"
        elif lit.count():
            target = lit.nth(rng.randrange(lit.count()))
        else:
            target = root.locator(".gb-choice, .gb-card").first
        if not target.count():
            break
        cpu0 = cpu_now() if cpu_now else 0.0
        target.click(force=True, timeout=10_000)
        # the first draw after the press, read in the same step that sees it painted (a later view, such as a hover's
        # answer, may replace gbDrawn before a second look)
        d = page.wait_for_function("(el) => { const d = el.gbDrawn, down = window.__gbDown || 0; "
                                   "return d && d.at > down && d.painted ? {ms: d.ms, at: d.at, painted: d.painted, down} "
                                   ": null; }", arg=handle, polling=5, timeout=30_000).json_value()
        cpu1 = cpu_now() if cpu_now else 0.0
        after = page.evaluate("(el) => (el.querySelector('.gb-current') || {dataset: {}}).dataset.node || ''", handle)
        kind = kind or ("play" if after != node else "select")
        by_kind[kind].append(d["painted"] - d["down"])
        if cpu_kind is not None:
            cpu_kind[kind].append(1000 * (cpu1 - cpu0))
        draws.append(d["ms"])
        renders.append(d["painted"] - d["at"])
        page.mouse.move(0, 0)  # no hover preview or "why" message between clicks


def _settle(page: Any, handle: Any, quiet: float = 0.2) -> None:
    """Wait until the board has drawn no new view for ``quiet`` seconds (a gesture's late views, such as an agent's
    move or a background check, must not be taken for the next click's answer)."""
    last, since = None, time.perf_counter()
    while time.perf_counter() - since < quiet:
        seq = (page.evaluate(DRAWN, handle) or {}).get("seq")
        if seq != last:
            last, since = seq, time.perf_counter()
        time.sleep(0.02)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m workbench.widget.bench", description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=60, help="clicks per board in process")
    ap.add_argument("--repeats", type=int, default=6, help="first boards per board in process")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--page", action="store_true", help="also in a real page: Voila and Debian's Chromium")
    ap.add_argument("--page-clicks", type=int, default=24, help="clicks per board in a page")
    ap.add_argument("--page-repeats", type=int, default=3, help="page loads (each a fresh kernel) per board")
    ap.add_argument("--only", action="append", default=[], metavar="GAME",
                    help="time only these boards (a registered game's name, or an --also board's GAME@RULES)")
    ap.add_argument("--also", action="append", default=[], metavar="GAME[@RULES]",
                    help="another board to time: a game under rule values (GAME@RULE=VALUE,...) or openspiel:NAME")
    args = ap.parse_args(argv)
    games = boards(args.also)
    if args.only:
        games = [(g, r) for g, r in games if g in args.only or f"{g}@{r}" in args.only]
    import anywidget  # noqa: F401 - the widget's import is part of a ready kernel, not of the first board

    in_process(games, args.clicks, args.seed, args.repeats)
    if args.page:
        page_bench(args.page_clicks, games, args.seed, args.page_repeats)


if __name__ == "__main__":
    main()
