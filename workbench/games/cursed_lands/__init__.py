"""The Cursed Lands (ПРОКЛЯТЫЕ ЗЕМЛИ) on the workbench protocol: ``GAME`` is its ``GameDef``.

Rules: /work/shared/cursed-lands/RULES-CONTRACT.md; scenario files: SCENARIO-FORMAT.md beside it.
See README.md in this folder for what is where.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.core.classes import load_archetypes
from workbench.core.protocol import Cell, GameDef, GameInfo, Layout, NativeBackend, ReportPart, State
from workbench.core.rulespec import Rules, RulesSpec

from . import actions as act
from .classes import ACTION_CLASSES
from .geometry import HEX_NAMES, NUM_HEXES, centre
from .position import build_state, state_from_dict
from .rules import FACTIONS, KINDS, SIDES, SPEC
from .state import RULE_WORDS, CursedState

LEGEND: tuple[tuple[str, str, str], ...] = (
    ("void", "#56606e", "void: untiled, impassable (untiled=void, C2)"),
    ("plain", "#d8d59a", "plain (tiles, camp hexes, flags)"),
    ("road", "#b08a5a", "road: +1 movement to a unit that starts on it (not orcs, not dwarves)"),
    ("forest", "#3f7d3a", "forest: -1 damage to a unit in it, -1 range shooting from it"),
    ("hill", "#a3b86c", "hill: +1 range shooting from it (not orcs)"),
    ("mountain", "#7d7468", "mountain: dwarves only; -2 range per mountain on the line of fire"),
    ("castle", "#8c2f39", "castle: 8 HP, no unit may enter it"),
    ("flag", "#e0c060", "spawn flag: production appears here; plain terrain"),
    ("camp", "#e8e4c0", "camp: free plain of a camp row"),
)


NO_LIMIT_CAP = 1_200  # the tools' default ply cap when turn_limit = 0 (no rule ends a stalled game)

class CursedNative(NativeBackend):
    """The Cursed Lands' native core (``native.py``, ``workbench._native.cursed_lands``) as the tools ask it."""

    exists = True
    sweep = "workbench.games.cursed_lands.nativediff"  # nativediff --game

    def available(self) -> bool:
        """True when the native core is built."""
        from .native import available

        return available()

    def play_game(self, spec: Any) -> Any:
        """simulate's fast path: the whole game of ``spec`` in the native core (the same row and
        events), or None when the core cannot play it (not built, or an agent without a native twin)."""
        from .native_play import play_native, playable

        return play_native(spec) if playable(spec, GAME.spec.make(spec.rules)) else None

    def state(self, state: Any) -> Any:
        """The same position on the native core (``NativeCursedState``, the protocol's API)."""
        from .native import native_state

        return native_state(state)

    def new_state(self, rules: Rules | None = None, seed: int = 0) -> Any:
        """The start under ``rules`` dealt from ``seed`` on the native core (the Python start's twin)."""
        from .native import native_state

        return native_state(GAME.new_initial_state(rules, seed))

    def agent(self, spec: str, rules: Rules, seed: int) -> Any:
        """The native twin of agent ``spec`` for one seat of a Python-loop game (a spec pinned ``engine=native``
        on the ladder, or the board's agent), or None when the core is not built or has no such agent."""
        from .native import NativeAgent, available

        return NativeAgent.for_seat(spec, GAME, rules, seed, available())

    def play_barred(self, start: Any, seats: Any, masks: Any, n_classes: int, chance_seed: int, max_plies: int) -> Any:
        """Restricted play in Rust (``native/src/cursed_lands/classes.rs``): (final state, legal counts, tallies)."""
        from .native import play_barred

        return play_barred(start, seats, masks, n_classes, max_plies)

    def class_bits(self, state: Any, action: Any) -> int:
        """The Rust classifier's bits for ``action`` in a ``NativeCursedState``."""
        from .native import class_bits

        return class_bits(state, action)

    def random_playouts(self, rules: Rules, games: int, seed: int, max_actions: int) -> int:
        """Actions of ``bench``'s random playouts played in the native core (the same games)."""
        from .native import core, fields_of, rules_dict

        if games <= 0:
            return 0
        if rules["setup"] == "classic":  # the core deals the classic start itself (checked equal in the tests)
            jobs: list[tuple[Any, int]] = [(None, seed * 100_003 + g) for g in range(games)]
            return sum(core().random_playouts(rules_dict(rules), jobs, max_actions))
        jobs = []
        factions = None
        for g in range(games):
            st = GAME.new_initial_state(rules, seed * 100_003 + g)
            factions = st.factions
            jobs.append((fields_of(st), seed * 100_003 + g))
        return sum(core().random_playouts(rules_dict(rules, factions), jobs, max_actions))


class CursedLandsGame(GameDef):
    """The Cursed Lands: a 9x9 hex duel on a board built from the players' tile decks during play."""

    name = "cursed-lands"
    title = "The Cursed Lands"
    scenario_folder = "cursed-lands"
    strength_file = "data/elo.json"  # the ladder's measured Elo table (workbench ladder --write)
    headline_grid = {"factions": ("humans/orcs", "orcs/humans")}  # the skill-trace benchmark's question (docs/balance.md)
    skill_trace = "alphabeta:depth=4,nodes=128..2048"  # ... asked at these doubling budgets (docs/strength.md)
    action_classes = ACTION_CLASSES  # laying each tile kind, each faction's ability, a counter-attack
    archetypes = load_archetypes(Path(__file__).parent / "data" / "archetypes.json", ACTION_CLASSES)  # rush, turtle ...
    heat_layers = ("threat", "control")
    evaluation_unit = "castle HP"
    glyph_words = {"#hp": "hit points left", "done": "has acted this turn", "fresh": "placed this turn",
                   "hu": "humans", "el": "elves", "or": "orcs", "dw": "dwarves",
                   "flag #": "a flag camp (production of that unit)", "flag-p1": "Player 1's flag", "flag-p2": "Player 2's flag",
                   "camp-p1": "Player 1's free camp", "camp-p2": "Player 2's free camp", "tiled-camp": "a camp under a tile"}
    legend = LEGEND
    native = CursedNative()
    # the variant OpenSpiel's random_sim_test plays besides the defaults: the contract's biggest open question,
    # with a turn limit so that the serialising run stays short
    openspiel_variant = {"untiled": "plain", "turn_limit": 60}

    @property
    def spec(self) -> RulesSpec:
        """Sections 12 and 13 of the contract."""
        return SPEC

    def info(self, rules: Rules | None = None) -> GameInfo:
        """Two sides; the decks are dealt from the seed (C38), and the order below each top is hidden (section 7)."""
        rules = rules or SPEC.defaults()
        per_turn = max(rules["ap_per_turn"], rules["ap_first_turn"]) + 1
        if min(rules[f"produce_cost_{k}"] for k in KINDS) == 0 or rules["activation_cost"] == 0 or rules["tile_cost"] == 0:
            # free actions are bounded by the flags (4), the deck and the units a side can have
            per_turn += 4 + sum(rules[f"deck_{t}"] for t in ("plain", "road", "forest", "hill", "mountain")) + NUM_HEXES
        length = rules["turn_limit"] * per_turn + 2 if rules["turn_limit"] else 10_000
        return GameInfo(
            name=self.name, title=self.title, players=SIDES, labels=("Player 1", "Player 2"), teams=((0,), (1,)),
            chance="seeded", perfect_information=False, max_game_length=length, turn_word="turn",
            # the rules' turn limit ends a game, not the tool's cap; without one, 300 turns of 4 plies
            default_max_plies=length if rules["turn_limit"] else NO_LIMIT_CAP,
        )

    def new_initial_state(self, rules: Rules | Mapping[str, Any] | str | None = None, seed: int = 0) -> CursedState:
        """The classic start, the setup phase (``setup_phase``) or a start file (``setup=PATH``); decks from ``seed``."""
        if not isinstance(rules, Rules):
            rules = SPEC.make(rules)
        return build_state(rules, None, seed)

    def state_from_dict(self, data: Mapping[str, Any]) -> CursedState:
        """Inverse of ``State.to_dict``."""
        return state_from_dict(data)

    def num_distinct_actions(self, rules: Rules | None = None) -> int:
        """Ints below this: end, 4 productions, 81 tiles, moves, attacks, moves-then-attacks, then camps."""
        rules = rules or SPEC.defaults()
        if not rules["setup_phase"]:
            return act.CAMP
        return act.CAMP + act.FLAG_CODES * len(act.unit_combos(rules["starting_units"]))

    def action_to_int(self, state: State, action: Any) -> int:
        """Actions are already dense ints."""
        return int(action)

    def int_to_action(self, state: State, number: int) -> Any:
        """Actions are already dense ints."""
        return int(number)

    def layout(self, rules: Rules | None = None) -> Layout:
        """81 pointy-top hexes in offset rows, row 9 at the top (section 1)."""
        cells = tuple(Cell(h, HEX_NAMES[h], *centre(h)) for h in range(NUM_HEXES))
        return Layout("hex-pointy", 1.0, cells)

    def scenario(self, data: Mapping[str, Any], where: str) -> Any:
        """A ``game: cursed-lands`` file as a runnable case (SCENARIO-FORMAT.md)."""
        from .scenario import load_case

        return load_case(data, where)

    def dump_scenario(self, state: State, id: str, title: str, checks: Sequence[Mapping[str, Any]] = ()) -> str:  # noqa: A002
        """The state as scenario text (JSON-style YAML) that loads back to the same state (C39)."""
        from .scenario import dump_scenario

        assert isinstance(state, CursedState)
        return dump_scenario(state, id, title, checks)

    # the board's position editor: units of each seat's faction (with their hit points) and tiles
    def edit_pieces(self, data: Mapping[str, Any]) -> Sequence[tuple[str, int, str]]:
        """Each seat's four kinds in its faction (``S`` p1's Swordsman, ``s`` p2's), then a tile of each terrain."""
        from .deck import TERRAINS
        from .rules import KIND_WORDS

        factions = (data.get("position") or {}).get("factions") or {}
        units = tuple((letter if side == 0 else letter.lower(), side,
                       f"{SIDES[side]} {factions.get(SIDES[side], '')} {KIND_WORDS[k]}".replace("  ", " "))
                      for side in (0, 1) for k, letter in enumerate(KINDS))
        return units + tuple((f"tile:{t}", -1, f"a {t} tile (under a unit too)") for t in TERRAINS)

    def edit_options(self, data: Mapping[str, Any], code: str) -> Sequence[tuple[str, str, tuple[str, ...]]]:
        """A unit's hit points, full first (its faction's full HP under the position's rules, section 10)."""
        if code.upper() not in KINDS or len(code) != 1:
            return ()
        full = self._full_hp(data, code)
        return (("hp", "hit points", tuple(str(h) for h in range(full, 0, -1))),)

    def _full_hp(self, data: Mapping[str, Any], code: str) -> int:
        from .rules import unit_table

        side = 0 if code.isupper() else 1
        factions = (data.get("position") or {}).get("factions") or {}
        faction = FACTIONS.index(str(factions.get(SIDES[side], FACTIONS[0])))
        return int(unit_table(self.rules(data.get("rules") or {})).hp[faction][KINDS.index(code.upper())])

    def edit_cell(self, data: dict[str, Any], cell: str, code: str,
                  options: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A unit (``S`` .. ``r``, with ``options["hp"]``) or a tile (``tile:forest``) set on ``cell``; "" removes the
        unit there, else the tile. The position's own checks (``state_from_dict``) judge the result: a unit on a
        void hex or a castle, hit points above full, are refused with the hex and the rule."""
        pos = dict(data.get("position") or {})
        units, hp, tiles = dict(pos.get("units") or {}), dict(pos.get("hp") or {}), dict(pos.get("tiles") or {})
        gone = {cell}
        if code.startswith("tile:"):
            tiles[cell] = code[5:]
            gone = set()
        elif code:
            units[cell] = code
            hp[cell] = int((options or {}).get("hp") or self._full_hp(data, code))
        elif cell in units:
            units.pop(cell)
            hp.pop(cell, None)
        else:
            tiles.pop(cell, None)
            gone = set()
        pos.update(units=units, hp=hp, tiles=tiles, winner=None, victory=None,
                   activated=[h for h in pos.get("activated") or [] if h not in gone],
                   fresh=[h for h in pos.get("fresh") or [] if h not in gone])
        return {**data, "position": pos}

    def edit_to_move(self, data: dict[str, Any], player: int) -> dict[str, Any]:
        """``p1`` or ``p2`` to move (the position's ``to_move``)."""
        if player not in (0, 1):
            raise ValueError(f"there is no seat {player} in {self.title} (p1, p2)")
        return {**data, "position": {**(data.get("position") or {}), "to_move": SIDES[player]}}

    def edit_clear(self, data: dict[str, Any]) -> dict[str, Any]:
        """Every unit off (the tiles, camps and castles stay)."""
        pos = {**(data.get("position") or {}), "units": {}, "hp": {}, "activated": [], "fresh": [], "winner": None,
               "victory": None}
        return {**data, "position": pos}

    def game_row(self, state: State) -> dict[str, Any]:
        """Factions, victory kind, turns, castle HP left, tiles placed and units produced per kind."""
        from .insight import game_row

        assert isinstance(state, CursedState)
        return game_row(state)

    def event_row(self, state: State, action: Any) -> dict[str, Any]:
        """The action in notation and the AP left after it (called before the action is applied)."""
        from .insight import event_row

        assert isinstance(state, CursedState)
        return event_row(state, action)

    def grid_values(self, key: str, value: Any) -> list[Any] | None:
        """Grid shorthands: ``factions=all`` is the 16 ordered pairs (issue 18)."""
        if key == "factions" and isinstance(value, str) and value.strip().lower() == "all":
            return list(SPEC["factions"].grid_values)
        return None

    def rule_words(self) -> dict[str, str]:
        """Counter name -> words for a designer."""
        return dict(RULE_WORDS)

    def evaluation_features(self, state: Any, player: int) -> dict[str, float]:
        """Units per kind, their HP and attack, castle HP and the positional terms (``insight.features``); a core
        state's are read in the core (``State::features``, the exact twin)."""
        from .insight import FEATURE_WEIGHTS, features
        from .native import NativeCursedState
        from .rules import KIND_WORDS

        if isinstance(state, NativeCursedState):
            names = [*(w.lower() for w in KIND_WORDS), *FEATURE_WEIGHTS]
            return dict(zip(names, state.native.features(player), strict=True))
        return features(state if hasattr(state, "terrain") else self.state_from_dict(state.to_dict()), player)

    def evaluation_weights(self, rules: Rules | None = None) -> dict[str, float]:
        """The hand weights (``insight.feature_weights``: the evaluation's constants, the same under every rule)."""
        from .insight import feature_weights

        return feature_weights()

    def report_sections(self, games: Any, events: Any) -> list[Any]:
        """The faction section (matrix, strengths with the seat removed, first-player advantage) and the batch
        maps of where tiles of each terrain are laid, units die and castles are hit from.

        Declared as data (``ReportPart.matchup`` and ``ReportPart.rule_maps``): the report builds them with
        its own statistics and pictures, so the game imports no tool.
        """
        out: list[Any] = []
        if {"faction_p1", "faction_p2"} <= set(games.columns):
            present = set(games["faction_p1"]) | set(games["faction_p2"])
            if len(present) > 1:
                out.append(ReportPart("Factions", matchup=("faction_p1", "faction_p2", "faction",
                                                           [f for f in FACTIONS if f in present])))
        if events is not None and len(events) and "rules" in events.columns:
            panels = [(f"{t} tiles laid", f"tiles_placed_{t}") for t in ("plain", "road", "forest", "hill", "mountain")]
            panels += [("units destroyed", "units_destroyed"), ("castles hit from", "castle_hit_from"),
                       ("forest cover applied", "forest_cover")]
            n = int(events["game_id"].nunique())
            text = (f"Where things happen, per game over the {n} games with events (all cells together): the hexes "
                    "where tiles of each terrain were laid, where units were destroyed, the hexes castles were hit "
                    "from (the attacker's hex) and where forest cover softened a hit. Colour bars start at 0.")
            out.append(ReportPart("Where tiles go, units die and castles are hit from", [text], rule_maps=panels))
        return out

    # ----------------------------------------------------------------- records
    def save_record(self, state: State) -> str:
        """A finished or running game as record JSON (``record.save_record``)."""
        from .record import save_record

        assert isinstance(state, CursedState)
        return save_record(state)

    def load_record(self, text: str) -> CursedState:
        """A record replayed and verified (``record.load_record_text``)."""
        from .record import load_record_text

        return load_record_text(text)


GAME = CursedLandsGame()

__all__ = ["GAME", "CursedLandsGame", "CursedState", "FACTIONS", "KINDS", "SIDES", "SPEC"]
