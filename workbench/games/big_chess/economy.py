"""Big chess's own report sections (``GameDef.report_sections``): results by seat and team, piece economy.

Called by ``workbench.balance.report`` with the games table (a pandas frame); pandas and the tools'
statistics are imported inside the functions, so the game package stays importable without them.
"""

from __future__ import annotations

import html
import math
from typing import Any


def _wilson(k: float, n: int) -> tuple[float, float]:
    """95% Wilson interval of k successes in n trials (NaN for n = 0)."""
    if n <= 0:
        return math.nan, math.nan
    z = 1.959963984540054
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def _pct(k: float, n: int) -> str:
    if n <= 0:
        return "–"
    lo, hi = _wilson(k, n)
    return f"{100 * k / n:.0f}% [{100 * lo:.0f}–{100 * hi:.0f}]"


def _table(rows: list[list[str]], head: list[str]) -> tuple[str, str]:
    md = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    md += ["| " + " | ".join(r) + " |" for r in rows]
    ht = ("<table class='t'><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"
          + "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows) + "</table>")
    return "\n".join(md), ht


def results_section(games: Any) -> dict[str, Any]:
    """Win rate by team and by seat (95% Wilson intervals over all games), decided share under the caps.

    Seats are folded by team: each team's row, then its seats' rows under it (in HTML a team's seats open
    under a ``<details>`` fold); a one-seat team is its seat, so a 25-player free-for-all has 25 rows, not 50."""
    head = ["teams", "who", "games", "won % of all [95% CI]", "won % of decided [95% CI]"]
    rows: list[list[str]] = []
    html_parts: list[str] = []
    texts = []
    for teams, g in games.groupby("teams", sort=True):
        n = len(g)
        decided = int((g["outcome"] == "win").sum())
        team_list = str(teams).split(",")
        won = g["winning_team"].astype(str) if "winning_team" in g.columns else None
        team_rows = []
        for t in team_list:
            k = int((won == t).sum()) if won is not None else 0
            label = f"team {t}" if len(t) > 1 else f"seat {t}"
            row = [str(teams), label, str(n), _pct(k, n), _pct(k, decided)]
            seat_rows = []
            if len(t) > 1:
                for seat in t:
                    col = f"score_{seat}"
                    if col in g.columns:
                        ks = int((g[col] > 0).sum())
                        seat_rows.append([str(teams), f"└ seat {seat}", str(n), _pct(ks, n), _pct(ks, decided)])
            rows.append(row)
            rows.extend(seat_rows)
            team_rows.append((row, seat_rows))
        texts.append(f"With teams {teams}: {decided} of {n} games decided ({_pct(decided, n)}); the rest are draws by "
                     f"max_turns/quiet_limit (B46) or cut by the ply cap.")
        for row, seat_rows in team_rows:
            _, ht = _table([row], head)
            if seat_rows:
                _, inner = _table(seat_rows, head)
                html_parts.append(f"<details><summary>{html.escape(row[1])}: {html.escape(row[3])} of all games "
                                  f"({html.escape(str(teams))})</summary>{inner}</details>")
            else:
                html_parts.append(ht)
    md, _ = _table(rows, head)
    words = " ".join(texts)
    _, top = _table([r for r in rows if not r[1].startswith("└")], head)
    return {"title": "Results by seat and by team", "markdown": words + "\n\n" + md,
            "html": f"<p>{html.escape(words)}</p>" + top + "<p>Seats by team:</p>" + "".join(html_parts),
            "figures": []}


def economy_section(games: Any) -> dict[str, Any]:
    """Piece economy: buy share per card against its cost, never/always bought, the turn-10 snowball."""
    from . import GAME

    n = len(games)
    keys = [c[len("buys_"):] for c in games.columns if c.startswith("buys_")]
    total = float(sum(games[f"buys_{k}"].fillna(0).sum() for k in keys)) or 1.0
    rules = GAME.spec.defaults()
    rows = []
    never, always = [], []
    for k in keys:
        col = games[f"buys_{k}"].fillna(0)
        cost_col = f"cost_{k}"
        cost = games[cost_col].iloc[0] if cost_col in games.columns else rules.get(cost_col)
        bought_in = int((col > 0).sum())
        rows.append((float(col.sum()) / total, k, cost, float(col.mean()), bought_in))
        if bought_in == 0:
            never.append(k)
        elif bought_in == n:
            always.append(k)
    rows.sort(reverse=True)
    md_rows = [[k, str(cost), f"{100 * share:.1f}%", f"{mean:.2f}", _pct(b, n)] for share, k, cost, mean, b in rows]
    md, ht = _table(md_rows, ["card", "cost", "share of all buys", "buys per game", "games with a buy [95% CI]"])
    words = [f"Buys (purchases at the King and Victim transformations) over {n} games, {int(total)} in all."]
    words.append(f"Never bought: {', '.join(never) if never else 'none'}. Bought in every game: "
                 f"{', '.join(always) if always else 'none'}.")
    snow = []
    for col in [c for c in games.columns if c.startswith("lead10_")]:
        team = col[len("lead10_"):]
        g = games[games[col].notna() & (games["outcome"] == "win")]
        ahead = g[g[col] > 0]
        if len(ahead):
            k = int((ahead["winning_team"].astype(str) == team).sum())
            snow.append(f"team {team} ahead in material at turn 10 won {_pct(k, len(ahead))} of {len(ahead)} such "
                        "decided games")
    if snow:
        words.append("Does an early lead snowball? " + "; ".join(snow) + " (50% would mean no association; "
                     "association, not cause).")
    else:
        words.append("No game reached turn 10 decided, so the snowball question has no data here.")
    causes = {c: int(games[c].fillna(0).sum()) for c in ("king_loss_strike", "king_loss_take", "king_loss_area",
                                                         "king_loss_altar") if c in games.columns}
    extras = {c: float(games[c].fillna(0).mean()) for c in ("veterancy", "promotion", "prince_buy", "shadow_strike",
                                                            "jester_block", "succession") if c in games.columns}
    if causes:
        words.append("King losses by cause: " + ", ".join(f"{k[len('king_loss_'):]} {v}" for k, v in causes.items()) + ".")
    if extras:
        words.append("Per game: " + ", ".join(f"{k.replace('_', ' ')} {v:.2f}" for k, v in extras.items()) + ".")
    text = " ".join(words)
    return {"title": "Piece economy", "markdown": text + "\n\n" + md, "html": f"<p>{html.escape(text)}</p>" + ht,
            "figures": []}


def economy_curves(events: Any) -> tuple[str, bytes] | None:
    """Mean treasury and trophies per seat by turn (the events' ``treasury_<seat>``/``trophies_<seat>`` after
    each turn), over the games still running, up to the turn half of them reach: words and a PNG, or None
    without those columns. matplotlib is imported here only, when a report asks."""
    seats = [c[len("treasury_"):] for c in events.columns if c.startswith("treasury_")]
    if not seats or not {"game_id", "turn"} <= set(events.columns) or not len(events):
        return None
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = [f"treasury_{s}" for s in seats] + [f"trophies_{s}" for s in seats if f"trophies_{s}" in events.columns]
    last = events.groupby(["game_id", "turn"], sort=True)[cols].last().reset_index()
    ends = last.groupby("game_id")["turn"].max()
    horizon = int(ends.median())
    mean = last[last["turn"] <= horizon].groupby("turn")[cols].mean()
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.4))
    for ax, what in zip(axes, ("treasury", "trophies"), strict=True):
        for i, s in enumerate(seats):
            col = f"{what}_{s}"
            if col in mean.columns:
                ax.plot(mean.index, mean[col], label=f"seat {s}", color=f"C{i % 10}", lw=1.4)
        ax.set_xlabel("turn (one player's turn each)")
        ax.set_ylabel(f"mean {what}")
        ax.set_ylim(bottom=0)
        ax.set_title(f"{what} per seat, over the games still running", fontsize=9)
    axes[0].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    n = int(events["game_id"].nunique())
    start = {s: float(mean[f"treasury_{s}"].iloc[0]) for s in seats}
    peak = {s: float(mean[f"treasury_{s}"].max()) for s in seats}
    words = (f"Treasury and trophy curves over the {n} games with events, up to turn {horizon} (half the games "
             "end by then): mean treasury after the first turn " + ", ".join(f"{s} {start[s]:.0f}" for s in seats)
             + "; highest mean treasury " + ", ".join(f"{s} {peak[s]:.0f}" for s in seats) + ".")
    return words, buf.getvalue()


def report_sections(games: Any, events: Any) -> list[dict[str, Any]]:
    """Both sections, when the table carries the columns big chess's rows write; with an events table the piece
    economy also draws the treasury and trophy curves."""
    if not len(games) or "teams" not in games.columns:
        return []
    out = [results_section(games)]
    if any(c.startswith("buys_") for c in games.columns):
        section = economy_section(games)
        curves = economy_curves(events) if events is not None else None
        if curves is not None:
            words, png = curves
            section["markdown"] += "\n\n" + words
            section["html"] += f"<p>{html.escape(words)}</p>"
            section["figures"] = [("big_chess_economy_curves", png)]
        out.append(section)
    return out
