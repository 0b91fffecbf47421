"""Agents for any game of the protocol: ``random``, ``greedy``, ``alphabeta``, ``mcts``, ``search``, ``plan``.

They know nothing of a game but ``workbench.core.protocol``: the player to move is a query, so a turn
of several actions keeps the same player and a search maximises or minimises by *team*, not by ply
parity; a chance node is an expectation for ``alphabeta``/``search`` (expectiminimax) and a sample for
``mcts``; with hidden information an agent searches ``state.view(player, seed)``, never the real deal.
With more than two teams the tree searches are *paranoid* (every other team minimises the root
team's value), which ``describe()`` says.

TerraFeud keeps its tuned agents of the same names (``workbench.agents``); these are what every other
game plays with, and they play TerraFeud too (the protocol tests run them on every game).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from workbench.core.agents import GENERIC_PREFIX, WIN, Agent, ProtocolAgent, _leaf, _teams, check_param, own_actions  # noqa: F401 - the kit, shared (GENERIC_PREFIX named here as before)
from workbench.core.protocol import CHANCE, State


class GenericRandom(ProtocolAgent):
    """Uniform over the legal actions: the baseline of every ladder."""

    name = "random"

    def select_action(self, state: State) -> Any:
        return self.rng.choice(self._legal(state))


def expected_value(state: State, value: Any) -> float:
    """The expectation of ``value(state)`` over the chance outcomes that follow (chained chance nodes too)."""
    if state.current_player() != CHANCE:
        return float(value(state))
    total = 0.0
    for outcome, p in state.chance_classes():  # outcomes of the same effect once, with their summed probability
        state.apply_action(outcome)
        total += p * expected_value(state, value)
        state.undo_action()
    return total


class GenericGreedy(ProtocolAgent):
    """One action deep: the evaluation after each action, an attack valued by its odds (expectation).

    ``epsilon=p`` plays a uniformly random legal action with probability ``p`` (one ``rng.random()`` draw
    a decision, then ``rng.choice``, as ``random``), else the greedy pick: rungs between ``random``
    (``epsilon=1``) and ``greedy`` (``epsilon=0``), so a ladder's Elo chain need not rest on one pairing
    that greedy wins every game of.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, game: Any = None, rules: Any = None, epsilon: float = 0.0) -> None:
        super().__init__(seed, game, rules)
        self.epsilon = check_param("greedy", "epsilon", epsilon, float, 0.0, 1.0)

    def describe(self) -> str:
        return self.name + (f": a random action with probability {self.epsilon:g}" if self.epsilon else "")

    def select_action(self, state: State) -> Any:
        if self.epsilon > 0 and self.rng.random() < self.epsilon:
            return self.rng.choice(self._legal(state))
        root = self.searchable(state)
        me = root.current_player()
        info = self.info(root)
        teams = _teams(root, info)
        best, best_v = [], -math.inf
        for action in self._legal(root):
            root.apply_action(action)
            v = expected_value(root, lambda s: self.leaf(s, me, teams))
            root.undo_action()
            if v > best_v + 1e-9:
                best, best_v = [action], v
            elif abs(v - best_v) <= 1e-9:
                best.append(action)
        return self.rng.choice(best)


class _Budget:
    """Node and time limits shared by one decision's search."""

    def __init__(self, nodes: int, seconds: float) -> None:
        self.nodes = nodes
        self.deadline = time.monotonic() + seconds
        self.used = 0

    def spend(self) -> bool:
        self.used += 1
        return self.used > self.nodes or (self.used & 255 == 0 and time.monotonic() > self.deadline)


class _Stop(Exception):
    """Raised inside a search when its budget is spent."""


class GenericAlphaBeta(ProtocolAgent):
    """Depth-limited alpha-beta by team, expectiminimax at chance nodes, paranoid with 3+ teams.

    ``depth`` counts actions, so a turn of three actions is three plies of the tree, all maximised by
    the same side. ``nodes`` and ``seconds`` cap the work; when the budget runs out the best action of
    the deepest finished iteration is played (iterative deepening from depth 1).
    """

    name = "alphabeta"

    def __init__(self, seed: int | None = None, game: Any = None, rules: Any = None, depth: int = 2,
                 nodes: int = 20_000, seconds: float = 2.0) -> None:
        super().__init__(seed, game, rules)
        self.depth = check_param("alphabeta", "depth", depth, int, 1, 8)
        self.nodes = check_param("alphabeta", "nodes", nodes, int, 1, 5_000_000)
        self.seconds = check_param("alphabeta", "seconds", seconds, float, 0.01, self.MAX_SECONDS)
        self.score = 0.0
        self.nodes_searched = 0
        self.depth_reached = 0
        self.exclude: list[Any] = []  # root actions left out (the board's second and third best lines)

    def describe(self) -> str:
        return f"{self.name}: depth {self.depth} by team" + (", paranoid" if self._info and len(self._info.teams) > 2 else "")

    def _ordered(self, state: State, actions: list[Any]) -> list[Any]:
        return sorted(actions, key=state.action_priority, reverse=True)

    def select_action(self, state: State) -> Any:
        root = self.searchable(state)
        info = self.info(root)
        self._teams = _teams(root, info)
        self._me = root.current_player()
        actions = self._ordered(root, [a for a in self._legal(root) if a not in self.exclude])
        if not actions:
            raise ValueError("alphabeta: every legal action is excluded")
        if len(actions) == 1 and not self.exclude:
            return actions[0]
        budget = _Budget(self.nodes, self.seconds)
        best = [actions[0]]
        for depth in range(1, self.depth + 1):
            try:
                scored = self._root(root, actions, depth, budget)
            except _Stop:
                break
            top = max(v for v, _ in scored)
            best = [a for v, a in scored if v >= top - 1e-9]
            self.score, self.depth_reached = top, depth
            actions = [a for _, a in sorted(scored, key=lambda x: -x[0])]  # best first next iteration
        self.nodes_searched = budget.used
        return self.rng.choice(best)

    def _root(self, root: State, actions: list[Any], depth: int, budget: _Budget) -> list[tuple[float, Any]]:
        out = []
        alpha = -math.inf
        for action in actions:
            root.apply_action(action)
            try:
                v = self._value(root, depth - 1, alpha, math.inf, budget)
            finally:
                root.undo_action()
            out.append((v, action))
            alpha = max(alpha, v - 1e-9)  # ties stay exact so the seeded tie-break sees every equal action
        return out

    def _value(self, state: State, depth: int, alpha: float, beta: float, budget: _Budget) -> float:
        if budget.spend():
            raise _Stop
        if state.is_terminal():
            return self.leaf(state, self._me, self._teams)
        player = state.current_player()
        if player == CHANCE:
            total = 0.0
            for outcome, p in state.chance_classes():
                state.apply_action(outcome)
                try:
                    total += p * self._value(state, depth, -math.inf, math.inf, budget)
                finally:
                    state.undo_action()
            return total
        if depth <= 0:
            return self.leaf(state, self._me, self._teams)
        maximise = self._teams[player] == self._teams[self._me]
        best = -math.inf if maximise else math.inf
        for action in self._ordered(state, own_actions(state)):
            state.apply_action(action)
            try:
                v = self._value(state, depth - 1, alpha, beta, budget)
            finally:
                state.undo_action()
            if maximise:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


class GenericSearch(GenericAlphaBeta):
    """Iterative deepening alpha-beta to the clock (``seconds``, ``nodes``): the strongest generic agent."""

    name = "search"

    def __init__(self, seed: int | None = None, game: Any = None, rules: Any = None, seconds: float = 1.0,
                 nodes: int = 200_000, depth: int = 8) -> None:
        super().__init__(seed, game, rules, depth=depth, nodes=nodes, seconds=seconds)


class _Node:
    __slots__ = ("action", "children", "player", "total", "visits")

    def __init__(self, action: Any, player: int) -> None:
        self.action = action
        self.player = player  # who chose ``action`` (whose reward this node accumulates)
        self.children: list[_Node] = []
        self.visits = 0
        self.total = 0.0


class GenericMCTS(ProtocolAgent):
    """UCT with per-player rewards; chance nodes are sampled by their probabilities.

    A playout runs ``rollout`` random actions and then scores the position with the game's evaluation
    (squashed to -1..1), so long games still give a signal. ``odds=1`` values an attack by its odds: a
    playout that reaches a chance node (a roll) stops there and takes the expectation of the evaluation over
    the roll's outcomes instead of one sampled roll; with ``rollout=0`` the playout is an evaluation cut-off
    right after the expanded action (the native twin in ``native/src/core/generic/mcts.rs`` does the same).
    ``prior=1`` expands a node's children in the game's move order (``action_priority``, the first of equal
    keys), so the moves the game ranks first are valued first.
    """

    name = "mcts"

    def __init__(self, seed: int | None = None, game: Any = None, rules: Any = None, iterations: int = 300,
                 c: float = 1.4, rollout: int = 20, seconds: float = 2.0, scale: float = 5.0, odds: int = 0,
                 prior: int = 0) -> None:
        super().__init__(seed, game, rules)
        self.odds = check_param("mcts", "odds", odds, int, 0, 1)
        self.prior = check_param("mcts", "prior", prior, int, 0, 1)
        self.iterations = check_param("mcts", "iterations", iterations, int, 1, 1_000_000)
        self.c = check_param("mcts", "c", c, float, 0.0, 10.0)
        self.rollout = check_param("mcts", "rollout", rollout, int, 0, 10_000)
        self.seconds = check_param("mcts", "seconds", seconds, float, 0.01, self.MAX_SECONDS)
        self.scale = check_param("mcts", "scale", scale, float, 0.001, 1e9)
        self.score = 0.0

    def _sample_chance(self, state: State) -> None:
        while state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            r, acc = self.rng.random(), 0.0
            pick = outcomes[-1][0]
            for o, p in outcomes:
                acc += p
                if r < acc:
                    pick = o
                    break
            state.apply_action(pick)

    def _rewards(self, state: State, n: int) -> list[float]:
        if state.is_terminal():
            return list(state.returns())
        if self.odds and state.current_player() == CHANCE:  # an attack valued by its odds, not one roll
            total = [0.0] * n
            for outcome, p in state.chance_classes():
                state.apply_action(outcome)
                for i, r in enumerate(self._rewards(state, n)):
                    total[i] += p * r
                state.undo_action()
            return total
        evaluate = self.evaluation or (lambda st, p: st.evaluate(p))
        return [math.tanh(evaluate(state, p) / self.scale) for p in range(n)]

    def select_action(self, state: State) -> Any:
        info = self.info(state)
        n = info.num_players
        legal = self._legal(state)
        if len(legal) == 1:
            return legal[0]
        root = _Node(None, -1)
        deadline = time.monotonic() + self.seconds
        base = self.searchable(state)
        for it in range(self.iterations):
            if it & 15 == 0 and time.monotonic() > deadline:
                break
            sim = base.clone()
            node, path = root, [root]
            while True:  # selection
                if sim.is_terminal():
                    break
                self._sample_chance(sim)
                if sim.is_terminal():
                    break
                legal = own_actions(sim)
                known = {ch.action for ch in node.children}
                fresh = [a for a in legal if a not in known]  # after a chance node, what is legal may change
                if fresh:  # prior=1: the game's move ordering picks (attacks first), else the stream
                    action = max(fresh, key=sim.action_priority) if self.prior else self.rng.choice(fresh)
                    child = _Node(action, sim.current_player())
                    node.children.append(child)
                    sim.apply_action(action)
                    node = child
                    path.append(node)
                    break
                allowed = set(legal)
                options = [ch for ch in node.children if ch.action in allowed]
                log_n = math.log(max(sum(ch.visits for ch in options), 1))
                node = max(options, key=lambda ch: ch.total / ch.visits + self.c * math.sqrt(log_n / ch.visits))
                sim.apply_action(node.action)
                path.append(node)
            for _ in range(self.rollout):  # playout (with odds=1 it stops at a roll and takes its expectation)
                if sim.is_terminal() or (self.odds and sim.current_player() == CHANCE):
                    break
                self._sample_chance(sim)
                if sim.is_terminal():
                    break
                sim.apply_action(self.rng.choice(own_actions(sim)))
            rewards = self._rewards(sim, n)
            for nd in path:
                nd.visits += 1
                if nd.player >= 0:
                    nd.total += rewards[nd.player]
        if not root.children:
            return self.rng.choice(legal)
        best = max(root.children, key=lambda ch: (ch.visits, ch.total / max(ch.visits, 1)))
        self.score = best.total / max(best.visits, 1)
        return best.action


class GenericPlan(ProtocolAgent):
    """Plans the whole of the mover's turn, however many actions it has (``plan:beam=8``).

    A turn of several actions is where depth-limited alpha-beta is weakest: its plies all belong to the
    same side, so nothing is cut off. This agent scores every legal action one action deep (as ``greedy``),
    completes each of the ``beam`` best (stable order, so equal scores keep the canonical order) greedily
    to the end of its own turn (at most ``steps`` more actions, the first best action at each step), and
    with ``reply=1`` also lets the opponent answer with its best single action, with ``reply=2`` with its
    whole turn played greedily (the opponent's best action at each step, at most ``steps``, so a move
    followed by an attack is seen), with ``reply=3`` that turn and then the mover's own next turn, greedily
    (so an attack it prepares now is valued by what it wins next turn); it plays the first action of the best whole turn (ties broken by the
    seeded stream in beam order) and replans at every decision.
    A game of one action per turn reduces to a one-ply search (``reply=1``: two plies). The native twin
    (``native/src/core/generic/plan.rs``) makes the same choices.
    """

    name = "plan"

    def __init__(self, seed: int | None = None, game: Any = None, rules: Any = None, beam: int = 8,
                 steps: int = 16, reply: int = 0) -> None:
        super().__init__(seed, game, rules)
        self.beam = check_param("plan", "beam", beam, int, 1, 256)
        self.steps = check_param("plan", "steps", steps, int, 1, 64)
        self.reply = check_param("plan", "reply", reply, int, 0, 3)
        self.score = 0.0
        self.nodes_searched = 0

    def describe(self) -> str:
        return f"{self.name}: the {self.beam} best first actions, each turn completed greedily" + (
            ("", ", the opponent's best reply", ", the opponent's greedy turn in reply",
             ", the opponent's greedy turn in reply and the mover's next turn")[self.reply])

    def _value(self, state: State, me: int, teams: list[int]) -> float:
        self.nodes_searched += 1
        return expected_value(state, lambda s: self.leaf(s, me, teams))

    def _complete(self, state: State, me: int, teams: list[int], value: float) -> float:
        """The value of the turn after its first action: greedy to the end of ``me``'s turn (then the reply)."""
        played = 0
        if state.current_player() == me:  # the rest of ``me``'s turn: ``_turn`` for the mover
            value, played = self._turn(state, me, teams, value, True)
        if self.reply >= 2 and not state.is_terminal() and state.current_player() >= 0 and state.current_player() != me:
            value, answered = self._turn(state, me, teams, value, False)
            if self.reply == 3 and answered and not state.is_terminal() and state.current_player() == me:
                value, again = self._turn(state, me, teams, value, True)  # the mover's next turn: its threats pay
                for _ in range(again):
                    state.undo_action()
            for _ in range(answered):
                state.undo_action()
        elif self.reply and not state.is_terminal() and state.current_player() >= 0 and state.current_player() != me:
            worst = math.inf
            for action in own_actions(state):
                state.apply_action(action)
                worst = min(worst, self._value(state, me, teams))
                state.undo_action()
            if worst < math.inf:
                value = worst
        for _ in range(played):
            state.undo_action()
        return value

    def _turn(self, state: State, me: int, teams: list[int], value: float, mine: bool) -> tuple[float, int]:
        """``reply=2``/``3``: the whole turn of the side to move, greedily (the best action for ``me`` at each step
        when ``mine``, else the worst, the first of equal ones), left applied: ``me``'s value at its end and the
        number of actions played (the caller undoes them)."""
        side = state.current_player()
        played = 0
        while played < self.steps and not state.is_terminal() and state.current_player() == side:
            best, best_v = None, -math.inf if mine else math.inf
            for action in own_actions(state):
                state.apply_action(action)
                v = self._value(state, me, teams)
                state.undo_action()
                if (v > best_v + 1e-9) if mine else (v < best_v - 1e-9):
                    best, best_v = action, v
            if best is None:
                break
            state.apply_action(best)
            played += 1
            value = best_v
        return value, played

    def select_action(self, state: State) -> Any:
        root = self.searchable(state)
        me = root.current_player()
        teams = _teams(root, self.info(root))
        actions = self._legal(root)
        if len(actions) == 1:
            return actions[0]
        self.nodes_searched = 0
        first = []
        for action in actions:
            root.apply_action(action)
            first.append((self._value(root, me, teams), action))
            root.undo_action()
        first.sort(key=lambda x: -x[0])  # stable: equal scores keep the canonical order
        scored = []
        for v1, action in first[: self.beam]:
            root.apply_action(action)
            scored.append((self._complete(root, me, teams, v1), action))
            root.undo_action()
        top = max(v for v, _ in scored)
        self.score = top
        return self.rng.choice([a for v, a in scored if v >= top - 1e-9])


GENERIC_AGENTS: dict[str, type[ProtocolAgent]] = {
    "random": GenericRandom,
    "greedy": GenericGreedy,
    "alphabeta": GenericAlphaBeta,
    "mcts": GenericMCTS,
    "search": GenericSearch,
    "plan": GenericPlan,
}


def make_protocol_agent(spec: str, game: Any, rules: Any = None, seed: int | None = None, **params: Any) -> Any:
    """A protocol agent from ``"alphabeta:depth=2"``; ``ValueError`` naming the agent or parameter.

    A name is the game's own agent when the game declares one (``GameDef.game_agents``: Pole's ``turtle``,
    TerraFeud's tuned ``alphabeta``), else the generic agent. ``generic-<name>`` (``generic-alphabeta:depth=2``)
    is always the generic agent of that name, so it stays reachable where a game's own agent takes the generic
    name. Restricted play (``bar=``) bars the generic agents, which search through the barred view of the state."""
    from . import parse_agent_spec

    base, spec_params = parse_agent_spec(spec)
    generic = base.startswith(GENERIC_PREFIX) and base[len(GENERIC_PREFIX):] in GENERIC_AGENTS
    if generic:
        base = base[len(GENERIC_PREFIX):]
    spec_params.update(params)
    spec_params.pop("engine", None)  # the engine is chosen by the caller (native cores join later)
    if "bar" in spec_params:  # restricted play: the same agent, barred from classes of actions (restrict.py)
        from .restrict import Restricted, parse_bar

        barred = parse_bar(spec_params.pop("bar"), game)
        inner = make_protocol_agent(GENERIC_PREFIX + base if base in GENERIC_AGENTS else base, game, rules, seed,
                                    **spec_params)
        restricted = Restricted(inner, game, barred)
        restricted.name = str(spec).strip()
        return restricted
    weights = spec_params.pop("eval", None)  # learned weights by file name (agents.learned), Python only
    factories: dict[str, Callable[..., Any]] = dict(GENERIC_AGENTS)
    if game is not None and game.archetypes:  # a game that declares play styles is played by the style agent
        from .style import StyleAgent

        factories["style"] = StyleAgent
    # a game's own agents (GameDef.game_agents) take their names for this game
    own = {} if generic else dict(game.game_agents())
    own_weights = weights is not None and base in own
    if own_weights:  # a game's own agent that reads learned weights takes the name (eval=NAME) itself
        spec_params["eval"], weights = weights, None
    factories.update(own)
    if base not in factories:
        raise ValueError(f"unknown agent {base!r} for {game.name}; known: {', '.join(factories)}")
    try:
        agent: ProtocolAgent = factories[base](seed=seed, game=game, rules=rules, **spec_params)
    except TypeError as exc:
        if own_weights and "'eval'" in str(exc):  # an own agent without eval=: never a silent switch
            who = (f"the generic agent does: {GENERIC_PREFIX}{str(spec).strip()}" if base in GENERIC_AGENTS
                   else f"the generic agents do ({', '.join(GENERIC_AGENTS)})")
            raise ValueError(f"agent {spec!r}: {game.title}'s own {base} reads no learned weights (eval=); {who}") from None
        raise ValueError(f"agent {spec!r}: bad parameters {sorted(spec_params)}: {exc}") from None
    if weights is not None:
        from .learned import learned_evaluation

        agent.evaluation = learned_evaluation(game, str(weights))
    agent.name = str(spec).strip()
    return agent
