"""The types of plysearch: the algorithms' names, a game written in Python, and the reports.

The reports are the dicts ``ply COMMAND ... --json`` prints, described here
as ``TypedDict``s for type checkers and editors; at run time each is a
:class:`plysearch.Report` (a ``dict``). Fields that only some searches
fill are marked ``NotRequired`` in spirit: the ``TypedDict``s are
``total=False`` where the ``method`` decides which fields are there.

Values are MAX's view (the first mover's) in the game's units, except
``score`` (the score search: the side to move's view). MCTS reports
``value`` on the scale -1..1 (a win for MAX 1, a loss -1, as the other
searches score a won/drawn/lost game) and each move's ``mean``, the win
rate 0..1 of the player to move, beside that move's ``value`` on the
report's scale.
"""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional, Union

if sys.version_info >= (3, 8):
    from typing import Literal, Protocol, TypedDict, runtime_checkable
else:  # pragma: no cover - plysearch needs 3.9
    raise ImportError("plysearch needs Python 3.9 or newer")

__all__ = [
    "Algo", "Game", "Stats", "MctsStats", "SolveReport", "AnalyzeReport", "MoveValue", "MctsMove",
    "CompareReport", "CompareRow", "TraceReport", "TraceStep", "CountReport", "PerftReport",
    "ShowReport", "ThreatReport", "GamesReport", "Strategy", "CfrSet", "CfrMove",
]

#: The searches: minimax, alpha-beta, iterative deepening, expectiminimax
#: (chance), Monte Carlo tree search, PUCT over a learned network (the
#: games ``games()`` marks ``network``: tictactoe, connect4), the exact
#: score solver, the nimber
#: search (impartial games), and counterfactual regret minimisation for
#: hidden information (poker: CFR, CFR+, linear and discounted CFR,
#: external-sampling Monte Carlo CFR). ``None`` (the default) picks the
#: game's engine (CFR+ for poker).
Algo = Literal["minimax", "alphabeta", "id", "expectiminimax", "mcts", "puct", "score", "nimber",
               "cfr", "cfr+", "lcfr", "dcfr", "mccfr"]

#: A value in a report: an integer for most games, a float for chance
#: games (an expectation) and MCTS, ``float('inf')``/``-inf`` in traces
#: before a node has a value.
Value = Union[int, float]


@runtime_checkable
class Game(Protocol):
    """A game written in Python: the lesson's six functions.

    ``player(state)`` returns "MAX" or "MIN", or the game's two symbols
    (the first mover's is MAX); ``utility(state)`` is an integer from MAX's
    view, asked of terminal states only. Two functions are optional and
    so not part of the protocol: ``evaluate(state)`` (an integer score from
    MAX's view, for depth limits) and ``key(state)`` (a hashable key for
    the tables, where states are expensive to hash).

    ``actions(state)`` may return a list (tried in its order) or a set
    (sorted first, so that runs are reproducible); alpha-beta's node count
    depends on that order.
    """

    def initial_state(self) -> Any: ...
    def player(self, state: Any) -> Any: ...
    def actions(self, state: Any) -> Any: ...
    def result(self, state: Any, action: Any) -> Any: ...
    def terminal(self, state: Any) -> bool: ...
    def utility(self, state: Any) -> Value: ...


class Stats(TypedDict, total=False):
    """What a depth-first search cost."""

    nodes: int
    leaves: int
    cutoffs: int
    depth: int
    tt_probes: int
    tt_hits: int
    tt_cutoffs: int
    time_ms: float
    nodes_per_second: float
    probes: int


class MctsStats(TypedDict):
    """What an MCTS search cost."""

    iterations: int
    tree_nodes: int
    simulations_per_second: float
    time_ms: float


class _MctsMoveBase(TypedDict):
    move: str
    visits: int
    mean: float
    value: float


class MctsMove(_MctsMoveBase, total=False):
    """A root move after MCTS: ``mean`` the mover's win rate (0..1), ``value`` MAX's view (-1..1);
    after PUCT also ``prior``, the network's probability of the move."""

    prior: float


class MoveValue(TypedDict, total=False):
    """A move's value in ``analyze`` (which fields depends on the report's ``method``)."""

    move: str
    value: Value
    proven: bool
    distance: Optional[int]
    score: int
    nimber: int
    win_probability: float
    visits: int
    mean: float


class _Header(TypedDict):
    kind: str
    game: str
    position: str
    algo: str
    to_move: str
    method: Literal["search", "expectiminimax", "score", "nimber", "mcts", "cfr"]


#: CFR's answer: each information set (what the mover sees, ``"K:pb"``)
#: with each move's probability, ``{"K:pb": {"p": 0.0, "b": 1.0}, ...}``.
Strategy = Dict[str, Dict[str, float]]


class CfrMove(TypedDict):
    """One move of an information set in ``analyze`` with a CFR search."""

    move: str
    average: float
    current: float
    regret: float


class CfrSet(TypedDict):
    """One information set in ``analyze`` with a CFR search."""

    name: str
    player: str
    reach: float
    moves: List[CfrMove]


class SolveReport(_Header, total=False):
    """``solve``: the value, the best move and the principal variation (``pv``)."""

    depth_limit: Optional[int]
    value: Optional[Value]
    proven: bool
    distance: Optional[int]
    score: int
    weak: bool
    nimber: int
    win_probability: float
    best_move: Optional[str]
    pv: List[str]
    moves: List[MctsMove]
    note: str
    stats: Union[Stats, MctsStats]
    # CFR (``method`` "cfr"): the game's value for MAX, how exploitable
    # the average strategy is, and the strategy itself.
    iterations: int
    exploitability: float
    nash_conv: float
    information_sets: int
    tree_nodes: int
    here: str
    strategy: Strategy
    time_ms: float


class AnalyzeReport(_Header, total=False):
    """``analyze``: every legal move's value, best first; with CFR, every information set."""

    depth_limit: Optional[int]
    win_probability_of: str
    moves: List[MoveValue]
    stats: Union[Stats, MctsStats]
    value: Value
    iterations: int
    exploitability: float
    nash_conv: float
    information_sets: int
    tree_nodes: int
    here: str
    best_move: Optional[str]
    pv: List[str]
    strategy: Strategy
    sets: List[CfrSet]
    time_ms: float


class CompareRow(TypedDict):
    """One search in ``compare``."""

    search: str
    value: Value
    best_move: Optional[str]
    nodes: int
    leaves: int
    cutoffs: int
    tt_hits: int
    time_ms: float
    ebf: float
    nodes_vs_alphabeta: float


class CompareReport(TypedDict):
    """``compare``: every exact search on one position; ``agree`` when their values do."""

    kind: Literal["compare"]
    game: str
    position: str
    depth_limit: Optional[int]
    agree: bool
    searches: List[CompareRow]


class TraceStep(TypedDict, total=False):
    """One step of a trace: ``alpha``, ``beta`` and ``value`` are numbers (``float('inf')`` before any).

    ``node`` is the path of child numbers from the root ("2.1": the root's
    second child's first child); ``child`` and ``child_value`` name the
    child an ``update`` or ``cutoff`` came from, ``probability`` a chance
    outcome's, ``pruned_children`` how many children a ``cutoff`` skipped.
    """

    step: int
    event: Literal["enter", "leaf", "update", "cutoff", "return"]
    node: str
    position: str
    player: str
    alpha: Value
    beta: Value
    value: Value
    child: str
    child_value: Value
    probability: float
    pruned_children: int


class TraceReport(TypedDict, total=False):
    """``trace``/``trace_game``: the steps, which leaves were evaluated and which pruned."""

    kind: Literal["trace"]
    game: str
    algo: str
    tree: str
    depth_limit: Optional[int]
    value: Value
    evaluated: List[str]
    pruned: List[str]
    steps: List[TraceStep]


class MctsChild(TypedDict):
    """A child as MCTS's selection weighed it: ``uct`` is ``None`` (infinite) while unvisited."""

    move: str
    visits: int
    mean: float
    uct: Optional[float]


class MctsSelection(TypedDict):
    """One step of selection: at ``node`` (its moves joined by dots, ``""`` the root), the child followed."""

    node: str
    player: Literal["MAX", "MIN", "chance"]
    visits: int
    children: List[MctsChild]
    chosen: str


class MctsIteration(TypedDict):
    """One MCTS iteration's four phases."""

    selection: List[MctsSelection]
    expanded: Optional[str]
    untried: List[str]
    node: str
    playout: List[str]
    end: str
    result: float


class MctsNode(TypedDict, total=False):
    """A node of the MCTS tree: ``mean`` for the player who made its move, 0..1."""

    move: str
    node: str
    player: str
    visits: int
    mean: float
    untried: int
    children: List["MctsNode"]


class MctsTraceReport(_Header):
    """``trace_mcts``: iteration N phase by phase, the root's moves after N, the top of the tree."""

    iterations: int
    c: float
    seed: int
    iteration: MctsIteration
    moves: List[MctsMove]
    tree: MctsNode


class PuctChild(TypedDict):
    """A child as PUCT's selection weighed it: ``score`` = ``q`` + ``u``, ``u`` = c·prior·√N / (1 + visits)."""

    move: str
    prior: float
    visits: int
    q: float
    u: float
    score: float


class PuctSelection(TypedDict):
    """One step of PUCT's selection: at ``node``, N = ``visits`` (its children's), the child followed."""

    node: str
    player: Literal["MAX", "MIN", "chance"]
    visits: int
    children: List[PuctChild]
    chosen: str


class PuctPrior(TypedDict):
    """A move of the expanded leaf and the network's probability for it."""

    move: str
    prior: float


class PuctSimulation(TypedDict):
    """One PUCT simulation: selection, the leaf (``node``, ``position``) expanded with its ``priors``,
    its ``value`` for its player to move (the network's, or the result when ``over``), and
    ``value_for_max``, what backup adds along the path."""

    selection: List[PuctSelection]
    node: str
    position: str
    over: bool
    priors: List[PuctPrior]
    value: float
    value_for_max: float


class PuctNode(TypedDict, total=False):
    """A node of the PUCT tree: ``q`` for the player who made its move, -1..1; ``prior`` the network's."""

    move: str
    node: str
    player: str
    prior: float
    visits: int
    q: float
    expanded: bool
    children: List["PuctNode"]


class PuctTraceReport(_Header, total=False):
    """``trace_puct``: simulation N step by step (absent for N = 0), the root's moves, the top of the tree."""

    simulations: int
    c: float
    network: str
    root_value: float
    simulation: PuctSimulation
    moves: List[MctsMove]
    tree: PuctNode


class CountReport(TypedDict):
    """``count``: distinct positions reachable, and how many end the game."""

    kind: Literal["count"]
    positions: int
    terminal: int


class PerftReport(TypedDict, total=False):
    """``perft``: move sequences of a length (``divide``: per first move)."""

    kind: Literal["perft"]
    nodes: int
    divide: List[Dict[str, Any]]


class ShowReport(TypedDict):
    """``show``: the board, whose turn, every move and the position it leads to, the result once over."""

    kind: Literal["show"]
    game: str
    position: str
    to_move: str
    terminal: bool
    result: Optional[str]
    value: Optional[Value]
    moves: List[Dict[str, str]]
    board: str


class ThreatReport(TypedDict):
    """``solve(..., vcf=True)``: a victory by continuous fours, if there is one."""

    kind: Literal["threat"]
    game: str
    position: str
    algo: str
    to_move: str
    vcf: Optional[List[str]]
    complete: bool
    nodes: int
    time_ms: float


class GamesReport(TypedDict):
    """``games()``: the built-in games and the algorithms."""

    kind: Literal["list"]
    games: List[Dict[str, Any]]
    algorithms: List[Dict[str, Any]]
