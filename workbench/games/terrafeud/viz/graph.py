"""The board as a graph (networkx): where each piece kind can go in one move, per season.

Edges come from the engine's own move generation for a lone piece on an otherwise empty board,
so every terrain rule (river, fords, the knight and the bridges, swamps) is the engine's. From the
graph: the fewest moves from each hex to the enemy castle centre, and the betweenness of the river
crossings, which shows how much each bridge or ford carries in summer and how little in winter.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import networkx as nx
import pandas as pd

from workbench.games.terrafeud.engine.board import Terrain, side_of_half
from workbench.games.terrafeud.engine.game import Game
from workbench.games.terrafeud.engine.geometry import CAVALRY_PATHS, HEX_NAMES, HEXES, N_HEXES, RAYS
from workbench.games.terrafeud.engine.pieces import CAVALRY, KIND_BY_LETTER, KIND_NAMES, code
from workbench.games.terrafeud.engine.rules import RulesConfig
from workbench.games.terrafeud.engine.state import MOVE

if TYPE_CHECKING:
    from matplotlib.axes import Axes

KINDS = ("feudal", "knight", "pikeman", "cavalry", "archer", "infantry")
SEASONS = ("summer", "winter")
SIDES = ("white", "black")


_KIND_BY_NAME = {name: k for k, name in KIND_NAMES.items()} | {"infantry": KIND_BY_LETTER["I"]}


def kind_code(kind: str | int) -> int:
    """Piece kind from a name (``knight``, ``infantry``), a letter (``K``) or a code (2)."""
    if isinstance(kind, int) and kind in KIND_NAMES:
        return kind
    if isinstance(kind, str):
        text = kind.strip()
        if text.lower() in _KIND_BY_NAME:
            return _KIND_BY_NAME[text.lower()]
        if len(text) == 1 and text.upper() in KIND_BY_LETTER:
            return KIND_BY_LETTER[text.upper()]
    raise ValueError(f"unknown piece kind {kind!r}: use one of {', '.join(KINDS)} or a letter F K P C A I")


def _side(side: int | str) -> int:
    if side in (0, 1):
        return int(side)
    if isinstance(side, str) and side.lower() in SIDES:
        return SIDES.index(side.lower())
    raise ValueError(f"unknown side {side!r}: use 0/'white' or 1/'black'")


def _game(season: str, terrain: Terrain | str | None) -> Game:
    """A game for the graph: no hill or swamp unless ``terrain`` is ``"rolled"``, ``"fixed"`` or a Terrain."""
    if season not in SEASONS:
        raise ValueError(f"unknown season {season!r}: use summer or winter")
    if terrain is None:
        return Game(rules=RulesConfig(season=season, hill=False, swamp=False))
    if isinstance(terrain, Terrain):
        return Game(rules=RulesConfig(season=season), terrain=terrain)
    if terrain in ("rolled", "fixed"):
        return Game(rules=RulesConfig(season=season, terrain=terrain))
    raise ValueError(f"terrain {terrain!r}: use None (no hill or swamp), 'fixed', 'rolled' or a Terrain")


@lru_cache(maxsize=64)
def _graph(kind: int, season: str, terrain: Terrain | str | None, side: int) -> nx.DiGraph:
    game = _game(season, terrain)
    bd = game.board
    g = nx.DiGraph(kind=KIND_NAMES[kind], season=season, side=SIDES[side])
    piece = code(kind, side)
    for h in HEXES:
        if bd.walkable[h]:
            g.add_node(h, name=HEX_NAMES[h], terrain=bd.kind_of(h))
    for h in list(g.nodes):
        st = game.state_from_pieces({h: piece}, to_move=side)
        for a in st.legal_actions():
            if a[0] == MOVE and a[1] == h:  # origin check: see docs/engine-bugs-found.md
                g.add_edge(h, a[2], over=_passed_over(kind, h, a[2]))
    return g


def _passed_over(kind: int, h: int, t: int) -> tuple[int, ...]:
    """Hexes a move from ``h`` to ``t`` crosses without stopping (a knight's slide, a cavalry path)."""
    if kind == CAVALRY:
        for land, inter in CAVALRY_PATHS[h]:
            if land == t:
                return inter
            if t in inter:
                return inter[: inter.index(t)]
        return ()
    for ray in RAYS[h]:
        if t in ray:
            return ray[: ray.index(t)]
    return ()


def movement_graph(kind: str | int, season: str = "summer", terrain: Terrain | str | None = None,
                   side: int | str = "white") -> nx.DiGraph:
    """Directed graph: nodes are hexes a piece can stand on, edges its one-move destinations (empty board).

    Directed because a swamp stops only its enemy's multi-hex moves. A copy: change it freely.
    """
    return _graph(kind_code(kind), season, terrain, _side(side)).copy()


def distances_to_castle(kind: str | int, season: str = "summer", side: int | str = "white",
                        terrain: Terrain | str | None = None) -> list[float]:
    """Fewest moves from each hex to the enemy castle centre for ``side``'s piece (NaN: never)."""
    s = _side(side)
    g = _graph(kind_code(kind), season, terrain, s)
    target = _game(season, terrain).board.castle_centre[1 - s]
    lengths = nx.single_source_shortest_path_length(g.reverse(copy=False), target)
    return [float(lengths[h]) if h in lengths else math.nan for h in range(N_HEXES)]


def distance_table(side: int | str = "white", terrain: Terrain | str | None = None,
                   start: str | None = None) -> pd.DataFrame:
    """Moves to the enemy castle per kind and season: from ``start`` (a hex), or the mean over the own half."""
    s = _side(side)
    rows = []
    for kind in KINDS:
        row: dict[str, Any] = {"kind": kind}
        for season in SEASONS:
            d = distances_to_castle(kind, season, s, terrain)
            if start is not None:
                row[season] = d[HEX_NAMES.index(start)]
            else:
                own = [d[h] for h in HEXES if _own_half(h, s) and not math.isnan(d[h])]
                row[season] = sum(own) / len(own) if own else math.nan
        rows.append(row)
    return pd.DataFrame(rows).set_index("kind")


def _own_half(h: int, side: int) -> bool:
    return side_of_half(h) == side


def _per_crossing(season: str | None, kinds: tuple[str, ...], terrain: Terrain | str | None,
                  measure: Callable[[nx.DiGraph, list[int]], list[float]]) -> pd.DataFrame:
    """One row per bridge and ford, one column per ``kind season``, values from ``measure(graph, crossings)``."""
    seasons = SEASONS if season is None else (season,)
    bd = _game("summer", terrain).board
    crossings = sorted(bd.bridges | bd.fords)
    cols = {
        f"{kind} {se}": measure(_graph(kind_code(kind), se, terrain, 0), crossings) for kind in kinds for se in seasons
    }
    df = pd.DataFrame(cols, index=pd.Index([HEX_NAMES[h] for h in crossings], name="hex"))
    df.insert(0, "crossing", ["bridge" if h in bd.bridges else "ford" for h in crossings])
    return df


def crossing_betweenness(season: str | None = None, kinds: tuple[str, ...] = ("infantry", "knight", "pikeman", "feudal"),
                         terrain: Terrain | str | None = None) -> pd.DataFrame:
    """Betweenness centrality of the bridges and fords in each kind's movement graph.

    One row per crossing, one column per ``kind season`` (both seasons when ``season`` is None).
    Betweenness is the share of all shortest move sequences between two hexes that pass the
    crossing: in summer the river funnels them through five hexes, in winter it is land.
    """

    def betweenness(g: nx.DiGraph, crossings: list[int]) -> list[float]:
        bc = nx.betweenness_centrality(g, normalized=True)
        return [bc.get(h, 0.0) for h in crossings]

    return _per_crossing(season, kinds, terrain, betweenness)


def crossing_share(season: str | None = None, kinds: tuple[str, ...] = KINDS,
                   terrain: Terrain | str | None = None) -> pd.DataFrame:
    """Share of the shortest journeys from White's half to Black's that use each crossing.

    A journey uses a crossing when it stops on it or passes over it (a knight's slide over a bridge,
    a cavalry leap over a ford). Shortest paths are weighted equally per pair of hexes, as in
    betweenness. In summer the shares of the five crossings add up to at least 1 for walkers (every
    journey must cross); in winter the river is land and the centre bridge is one path among many.
    """

    def share(g: nx.DiGraph, crossings: list[int]) -> list[float]:
        sources = [h for h in g.nodes if side_of_half(h) == 0]
        targets = [h for h in g.nodes if side_of_half(h) == 1]
        eb = nx.edge_betweenness_centrality_subset(g, sources, targets, normalized=False)
        pairs = len(sources) * len(targets)
        use = dict.fromkeys(crossings, 0.0)
        for (a, b), w in eb.items():
            for v in set(g.edges[a, b]["over"]) | {b}:
                if v in use:
                    use[v] += w / pairs
        return [use[h] for h in crossings]

    return _per_crossing(season, kinds, terrain, share)


def draw_movement_graph(kind: str | int, season: str = "summer", ax: Axes | None = None,
                        terrain: Terrain | str | None = None, side: int | str = "white",
                        from_hex: str | None = None) -> Axes:
    """The movement graph on the board: every edge, or only those leaving ``from_hex``.

    Edges are drawn as arcs bent by their length, each ending in a dot on its target: a slide's moves
    along one line (f3-f4, f3-f5, f3-f7) and the two directions of a pair (a-b, b-a) no longer lie on
    top of each other, so each edge can be told apart.
    """
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path as MPath

    from .layout import Layout
    from .mpl import _new_axes, draw_scene
    from .scene import board_scene

    s = _side(side)
    g = _graph(kind_code(kind), season, terrain, s)
    game = _game(season, terrain)
    lay = Layout()
    ax = _new_axes(ax)
    draw_scene(board_scene(game.state_from_pieces({}), layout=lay, overlays=()), ax)
    edges = list(g.edges) if from_hex is None else list(g.out_edges(HEX_NAMES.index(from_hex)))
    bend = 0.18 if from_hex is None else 0.12
    patches = []
    ends = []
    for a, b in edges:
        (x1, y1), (x2, y2) = lay.hex_to_pixel(a), lay.hex_to_pixel(b)
        dx, dy = x2 - x1, y2 - y1
        # the control point sits off the chord by a share of its length: longer edges bulge further,
        # and b-a bends to the other side of a-b
        k = bend * (1 + 0.35 * (math.hypot(dx, dy) / (lay.size * 1.8) - 1)) if from_hex is not None else bend
        cx, cy = (x1 + x2) / 2 - dy * k, (y1 + y2) / 2 + dx * k
        patches.append(PathPatch(MPath([(x1, y1), (cx, cy), (x2, y2)], [MPath.MOVETO, MPath.CURVE3, MPath.CURVE3])))
        ends.append((x2, y2))
    ax.add_collection(PatchCollection(patches, facecolor="none", edgecolor="#8e1b1b",
                                      linewidths=0.7 if from_hex is None else 2.0,
                                      alpha=0.35 if from_hex is None else 0.9, zorder=4))
    if from_hex is not None and ends:
        xs, ys = zip(*ends, strict=True)
        ax.scatter(xs, ys, s=28, c="#8e1b1b", zorder=5, edgecolors="white", linewidths=0.8)
    ax.set_title(f"{KIND_NAMES[kind_code(kind)]} moves, {season}: {len(edges)} edges")
    return ax


__all__ = [
    "KINDS", "crossing_betweenness", "crossing_share", "distance_table", "distances_to_castle", "draw_movement_graph",
    "kind_code", "movement_graph",
]
