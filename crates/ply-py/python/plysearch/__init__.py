"""plysearch: ply's game-tree search in Rust, from Python.

The package is ``plysearch`` (``pip install plysearch``; PyPI's ``ply`` is
Python Lex-Yacc, another project); the examples import it as ``ply``.

Two kinds of game:

* **The built-in games** (``ply.games()`` lists them: tictactoe, connect4,
  chess, pig, coins, ...), named by a string, positions in the game's
  notation. ``solve``, ``analyze``, ``compare``, ``count``, ``perft``,
  ``show`` and ``trace`` return exactly what ``ply COMMAND ... --json``
  prints, as dicts and lists; a mistake raises ``ValueError`` with the
  command line's message. The search runs without the GIL, and Ctrl-C
  (``KeyboardInterrupt``) stops it.

* **A game written in Python**: any object (or module) with the lesson's
  functions ``initial_state()``, ``player(state)``, ``actions(state)``,
  ``result(state, action)``, ``terminal(state)`` and ``utility(state)``
  (MAX's view), and optionally ``evaluate(state)`` (for depth limits) and
  ``key(state)`` (a cheaper key for tables; without it a state is keyed
  by its contents, hashable or not). ``player`` returns "MAX" or
  "MIN", or the game's two symbols, the first mover's being MAX. Pass the
  object instead of a name to ``solve``, ``analyze``, ``compare``,
  ``best_move`` and ``trace_game``: ply's searches (minimax, alpha-beta,
  iterative deepening, MCTS) call your functions. Exceptions they raise
  reach you with their traceback.

>>> import plysearch as ply
>>> ply.solve("tictactoe", algo="alphabeta")["value"]
0
"""

from __future__ import annotations

import difflib
import json
import math
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union, cast, get_args

from . import _ply
from .types import (
    Algo, AnalyzeReport, CompareReport, CountReport, Game, GamesReport, MctsTraceReport, PerftReport, PuctTraceReport,
    ShowReport, SolveReport, ThreatReport, TraceReport,
)

__all__ = [
    "games", "solve", "analyze", "compare", "count", "perft", "show", "trace",
    "best_move", "trace_game", "trace_mcts", "trace_puct", "learn", "Report", "Algo", "Game", "__version__",
]
__version__: str = _ply.__version__


class Report(dict):  # type: ignore[type-arg]
    """A result: the dict of the command line's JSON, printed as indented JSON."""

    def __repr__(self) -> str:
        return json.dumps(self, indent=2, ensure_ascii=False)

    __str__ = __repr__


_INFINITIES = {"-inf": -math.inf, "+inf": math.inf}


def _loads(text: str) -> Report:
    report: Report = json.loads(text, object_hook=Report)
    # A trace's bounds before any value are infinite; JSON has no
    # infinity, so the service writes "-inf"/"+inf": numbers here.
    for step in report.get("steps") or ():
        for name in ("alpha", "beta", "value", "child_value"):
            if step.get(name) in _INFINITIES:
                step[name] = _INFINITIES[step[name]]
    return report


_ALGOS: List[str] = [a["name"] for a in json.loads(_ply.games())["algorithms"]]
assert sorted(_ALGOS) == sorted(get_args(Algo)), "types.Algo lists the service's algorithms"


def _check_algo(algo: Any) -> None:
    """``algo=`` names one of ply's searches, or says which it could mean."""
    if algo is None or algo in _ALGOS:
        return
    if not isinstance(algo, str):
        raise TypeError(f"algo= must be a search's name (a str), not {type(algo).__name__}")
    close = difflib.get_close_matches(algo, _ALGOS, n=1)
    hint = f"; did you mean algo={close[0]!r}?" if close else ""
    raise ValueError(f"algo={algo!r} is not one of ply's searches: {', '.join(_ALGOS)}{hint}")


# The largest value each whole-number keyword takes (the request's field
# widths): a bigger one is named here rather than by the JSON reader.
_WHOLE = {"depth": 2**32 - 1, "time_ms": 2**64 - 1, "tt_mb": 2**64 - 1, "seed": 2**64 - 1,
          "iterations": 2**64 - 1, "threads": 2**64 - 1, "max_positions": 2**64 - 1,
          "simulations": 2**64 - 1}
_FLAGS = ("order", "pvs", "fast_win", "star1", "weak", "vcf", "divide")


def _check_value(name: str, value: Any) -> None:
    """Each keyword's type and range, in Python's words, before any call."""
    if name in _WHOLE:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name}= must be a whole number (an int), not {type(value).__name__}")
        if not 0 <= value <= _WHOLE[name]:
            raise ValueError(f"{name}={value} is out of range: 0 to {_WHOLE[name]:,}")
    elif name in _FLAGS:
        if not isinstance(value, bool):
            raise TypeError(f"{name}= is True or False, not {value!r}")
    elif name == "c":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"c= must be a number, not {type(value).__name__}")
    elif name == "moves":
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise TypeError(f"moves= must be a list of moves (e.g. ['4', '3']), not {type(value).__name__}")
    elif name == "params":
        if not isinstance(value, Mapping):
            raise TypeError(f"params= must be a dict (e.g. {{'n': 21}}), not {type(value).__name__}")
    elif name == "net":
        if not isinstance(value, (str, os.PathLike)):
            raise TypeError(f"net= must be a network file's path (a str or a Path), not {type(value).__name__}")
    elif name in ("position", "tree", "infoset"):
        if not isinstance(value, str):
            raise TypeError(f"{name}= must be a str in the game's notation, not {type(value).__name__}")


def _request(game: Optional[str], kw: Mapping[str, Any]) -> str:
    """The JSON request for the keywords given (``None`` and ``False`` left out)."""
    _check_algo(kw.get("algo"))
    body: Dict[str, Any] = {} if game is None else {"game": game}
    for name, value in kw.items():
        if value is None:
            continue
        _check_value(name, value)
        if value is False:
            continue
        if name == "moves":
            value = [str(m) for m in value]
        if name == "params":
            value = {k: str(v) for k, v in value.items()}
        if name == "net":
            value = os.fspath(value)
        body[name] = value
    return json.dumps(body)


def _builtin(command: str, game: str, kw: Mapping[str, Any]) -> Report:
    if not isinstance(game, str):
        raise TypeError(f"game must be a built-in game's name (a str) or a game object, not {type(game).__name__}")
    return _loads(_ply.call(command, _request(game, kw)))


def _python(command: str, game: Any, state: Any, moves: Optional[Sequence[Any]], kw: Mapping[str, Any]) -> Report:
    if kw.get("position") is not None or kw.get("params"):
        raise ValueError("a Python game takes state= (and moves=[...] as actions), not position= or params=")
    if moves is not None:
        _check_value("moves", moves)
    opts = {k: v for k, v in kw.items() if k not in ("position", "params")}
    text = _ply.search_game(game, command, _request("python", opts), state, list(moves) if moves else None)
    return _loads(text)


def _either(command: str, game: Union[str, Game], position: Optional[str], state: Any,
            moves: Optional[Sequence[Any]], kw: Dict[str, Any]) -> Report:
    """A built-in game by name, or a game written in Python."""
    if isinstance(game, str):
        if state is not None:
            raise ValueError("state= is for games written in Python; give a built-in game's position=")
        return _builtin(command, game, dict(position=position, moves=moves, **kw))
    return _python(command, game, state, moves, dict(position=position, **kw))


def games() -> GamesReport:
    """The built-in games, their parameters and notations, and the algorithms: ``ply list --json``."""
    return cast(GamesReport, _loads(_ply.games()))


def solve(
    game: Union[str, Game],
    position: Optional[str] = None,
    *,
    state: Any = None,
    moves: Optional[Sequence[Any]] = None,
    params: Optional[Mapping[str, Any]] = None,
    algo: Optional[Algo] = None,
    depth: Optional[int] = None,
    time_ms: Optional[int] = None,
    tt_mb: Optional[int] = None,
    order: bool = False,
    pvs: bool = False,
    fast_win: bool = False,
    seed: Optional[int] = None,
    iterations: Optional[int] = None,
    c: Optional[float] = None,
    threads: Optional[int] = None,
    star1: bool = False,
    weak: bool = False,
    vcf: bool = False,
    infoset: Optional[str] = None,
    simulations: Optional[int] = None,
    net: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> SolveReport:
    """The value of a position, the best move, the principal variation and what the search cost.

    ``game`` is a built-in game's name (then ``position`` in its notation,
    ``moves`` in its move notation, ``params`` its parameters) or a game
    written in Python (then ``state``, default its initial state, and
    ``moves``, actions played from it first).

    ``algo``: "minimax", "alphabeta", "id" (iterative deepening),
    "expectiminimax", "mcts", "score" (the exact solver), "nimber", and
    for poker (hidden cards) "cfr", "cfr+", "lcfr", "dcfr", "mccfr";
    default: the game's engine (iterative deepening with a table and
    ordering, for at most 10 s unless ``depth`` or ``time_ms`` says so;
    expectiminimax for games with chance; the score search where the game
    has one). ``depth`` limits a depth-first search (an evaluation scores
    the horizon); ``time_ms`` bounds iterative deepening, the engine and
    MCTS; ``tt_mb`` (a table of that many MiB), ``order``, ``pvs`` and
    ``fast_win`` add engine features to alpha-beta; ``seed``,
    ``iterations``, ``c`` (UCT's exploration constant) and ``threads`` are
    MCTS's (``threads`` also the engine's); ``star1`` prunes
    expectiminimax's chance nodes; ``weak`` asks the score search for the
    win/draw/loss only. ``algo="puct"`` is MCTS guided by a learned
    network (AlphaZero's search) in the games ``games()`` marks
    ``network``: ``simulations`` (default 800; 0 answers with the network
    alone: its favourite move and its value), ``c`` and ``seed``, and
    ``net``, a network file ``ply learn`` saved (default: the game's
    built-in network). An option that does not apply to the search is a
    ``ValueError`` naming it. ``vcf=True`` runs only the game's threat
    search (gomoku: a victory by continuous fours) and returns a
    :class:`~plysearch.types.ThreatReport`.

    Poker (``kuhn``, ``leduc``) is solved whole by counterfactual regret
    minimisation (CFR+ by default; ``iterations``, and ``seed`` for
    "mccfr"): the report's ``strategy`` is a dict from each information set
    (what the mover sees, ``"K:pb"``) to each move's probability,
    ``value`` the first player's winnings a hand, ``exploitability`` how far
    from an equilibrium; ``infoset="K:pb"`` keeps that set alone (an
    unknown one is a ``ValueError`` listing some).

    Returns the dict ``ply solve ... --json`` prints: ``value`` (MAX's
    view), ``best_move``, ``pv``, ``stats`` (``nodes``, ``leaves``, ...).
    Raises ``ValueError`` (``TypeError`` for a wrong type) naming the
    keyword at fault; a Python game's exceptions pass through.

    >>> ply.solve("tictactoe", algo="minimax")["stats"]["nodes"]
    549946
    """
    kw = dict(params=params, algo=algo, depth=depth, time_ms=time_ms, tt_mb=tt_mb, order=order, pvs=pvs,
              fast_win=fast_win, seed=seed, iterations=iterations, c=c, threads=threads, star1=star1,
              weak=weak, vcf=vcf, infoset=infoset, simulations=simulations, net=net)
    return cast(SolveReport, _either("solve", game, position, state, moves, kw))


def analyze(
    game: Union[str, Game],
    position: Optional[str] = None,
    *,
    state: Any = None,
    moves: Optional[Sequence[Any]] = None,
    params: Optional[Mapping[str, Any]] = None,
    algo: Optional[Algo] = None,
    depth: Optional[int] = None,
    time_ms: Optional[int] = None,
    tt_mb: Optional[int] = None,
    order: bool = False,
    pvs: bool = False,
    fast_win: bool = False,
    seed: Optional[int] = None,
    iterations: Optional[int] = None,
    c: Optional[float] = None,
    threads: Optional[int] = None,
    star1: bool = False,
    weak: bool = False,
    infoset: Optional[str] = None,
    simulations: Optional[int] = None,
    net: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> AnalyzeReport:
    """The value of every legal move, best first: ``ply analyze ... --json``.

    Takes what :func:`solve` takes (but ``vcf``). Each entry of ``moves``
    has ``move`` (for a Python game, ``str(action)``), ``value`` (MAX's
    view) and, for exact searches, ``proven`` and ``distance`` (plies to
    the end); MCTS's have ``visits``, ``mean`` and ``value``, and PUCT's
    also ``prior``, the network's probability of the move. With a CFR
    search, ``sets`` lists every information set (or ``infoset``'s) with
    its ``reach`` and each move's ``average`` and ``current`` strategy and
    ``regret``.
    """
    kw = dict(params=params, algo=algo, depth=depth, time_ms=time_ms, tt_mb=tt_mb, order=order, pvs=pvs,
              fast_win=fast_win, seed=seed, iterations=iterations, c=c, threads=threads, star1=star1,
              weak=weak, infoset=infoset, simulations=simulations, net=net)
    return cast(AnalyzeReport, _either("analyze", game, position, state, moves, kw))


def compare(
    game: Union[str, Game],
    position: Optional[str] = None,
    *,
    state: Any = None,
    moves: Optional[Sequence[Any]] = None,
    params: Optional[Mapping[str, Any]] = None,
    depth: Optional[int] = None,
    tt_mb: Optional[int] = None,
) -> CompareReport:
    """Every exact search on one position, side by side: ``ply compare ... --json``.

    Minimax, alpha-beta, alpha-beta with ordering, with a table (``tt_mb``,
    64 by default), PVS and the engine: value, nodes, leaves, cutoffs,
    time, effective branching factor (``ebf``) and nodes against plain
    alpha-beta. The searches must agree (``agree``); if they do not,
    ``ValueError`` says which.
    """
    kw = dict(params=params, depth=depth, tt_mb=tt_mb)
    return cast(CompareReport, _either("compare", game, position, state, moves, kw))


def trace_game(game: Game, *, state: Any = None, moves: Optional[Sequence[Any]] = None,
               algo: Optional[Algo] = None, depth: Optional[int] = None) -> TraceReport:
    """The step-by-step trace of a search on a game written in Python: the rows ``ply trace`` prints.

    Each step has ``node`` (the path of actions), ``player``, ``alpha``,
    ``beta``, ``value`` (numbers; ``float('inf')`` and ``-inf`` before
    any) and ``event`` (enter, leaf, update, cutoff, return); ``pruned``
    names the leaves alpha-beta never looked at. Traces are capped at
    25,000 nodes: give a ``depth`` for bigger games.
    """
    return cast(TraceReport, _python("trace", game, state, moves, dict(algo=algo, depth=depth)))


def trace_mcts(game: Union[str, Game], position: Optional[str] = None, *, state: Any = None,
               moves: Optional[Sequence[Any]] = None, params: Optional[Mapping[str, Any]] = None,
               iterations: int = 1, seed: Optional[int] = None, c: Optional[float] = None) -> MctsTraceReport:
    """Iteration ``iterations`` of MCTS, phase by phase: ``ply trace GAME --algo mcts --json``.

    The ``iterations - 1`` before it run untraced on the same seeded tree,
    so ``moves`` (the root's moves after them all) are exactly what
    ``analyze(game, algo="mcts", iterations=N, seed=S)`` reports.
    ``iteration`` tells the last one: ``selection`` (at each node passed,
    every child's ``visits``, ``mean`` and ``uct`` = mean + c·√(ln N / n),
    the highest followed), ``expanded`` (drawn from ``untried``), the
    ``playout``'s moves and the ``result`` for MAX (1, 0.5, 0), which every
    node on the path to ``node`` adds from its mover's view. ``tree`` is the
    top two levels. Works on built-in games and games written in Python.

    >>> r = ply.trace_mcts("tictactoe", ".OX..X..O", iterations=1000, seed=1)
    >>> r["moves"][0]["move"], r["moves"][0]["visits"]
    ('4', 856)
    """
    kw: Dict[str, Any] = dict(algo="mcts", iterations=iterations, seed=seed, c=c)
    if isinstance(game, str):
        kw["params"] = params
    elif params:
        raise ValueError("params= is for built-in games; a Python game has its own")
    return cast(MctsTraceReport, _either("trace", game, position, state, moves, kw))


def trace_puct(game: Union[str, Game], position: Optional[str] = None, *, state: Any = None,
               moves: Optional[Sequence[Any]] = None, params: Optional[Mapping[str, Any]] = None,
               simulations: int = 1, net: Optional[Union[str, "os.PathLike[str]"]] = None,
               seed: Optional[int] = None, c: Optional[float] = None) -> PuctTraceReport:
    """Simulation ``simulations`` of PUCT (AlphaZero's search), step by step: ``ply trace GAME --algo puct --json``.

    The network (``net``, default the game's built-in one) first values
    the root (``root_value``, for the player to move) and gives each move
    a prior. The ``simulations - 1`` before the traced one run one at a
    time. ``simulation`` tells the last: ``selection`` (at each node
    passed, every child's ``prior``, ``visits``, ``q`` and
    ``u`` = c·prior·√N / (1 + visits), the highest ``score`` = q + u
    followed), the leaf reached and its ``priors`` (all its moves at once),
    and its ``value`` from the network in place of MCTS's random playout.
    ``simulations=0`` shows the network's answer alone. ``tree`` is the top
    two levels, each node with its prior. For the games ``games()`` marks
    ``network`` (tic-tac-toe, Connect Four), and games written in Python
    with ``encode`` (then ``net`` is needed: see :func:`learn`).

    >>> r = ply.trace_puct("tictactoe", ".OX..X..O", simulations=1)
    >>> r["simulation"]["selection"][0]["chosen"]
    '4'
    """
    kw: Dict[str, Any] = dict(algo="puct", simulations=simulations, net=net, seed=seed, c=c)
    if isinstance(game, str):
        kw["params"] = params
    elif params:
        raise ValueError("params= is for built-in games; a Python game has its own")
    return cast(PuctTraceReport, _either("trace", game, position, state, moves, kw))


def best_move(
    game: Game,
    state: Any = None,
    *,
    moves: Optional[Sequence[Any]] = None,
    algo: Optional[Algo] = None,
    depth: Optional[int] = None,
    time_ms: Optional[int] = None,
    tt_mb: Optional[int] = None,
    order: bool = False,
    pvs: bool = False,
    fast_win: bool = False,
    seed: Optional[int] = None,
    iterations: Optional[int] = None,
    c: Optional[float] = None,
    threads: Optional[int] = None,
) -> Any:
    """The best action in ``state`` (default: the start) of a game written in Python, as an action object.

    Takes :func:`solve`'s search options. ``None`` when the game is over.
    """
    kw = dict(algo=algo, depth=depth, time_ms=time_ms, tt_mb=tt_mb, order=order, pvs=pvs, fast_win=fast_win,
              seed=seed, iterations=iterations, c=c, threads=threads)
    report = _python("solve", game, state, moves, kw)
    chosen = report.get("best_move")
    if chosen is None:
        return None
    at = state if state is not None else game.initial_state()
    for action in moves or ():
        at = game.result(at, action)
    for action in game.actions(at):
        if str(action) == chosen:
            return action
    raise RuntimeError(f"the best move {chosen!r} is not among actions(state)")


def learn(
    game: Game,
    out: Union[str, "os.PathLike[str]"],
    *,
    generations: int = 50,
    games: int = 100,
    simulations: int = 50,
    channels: int = 32,
    blocks: int = 2,
    steps: int = 100,
    minibatch: int = 128,
    window: int = 4,
    learning_rate: float = 2e-3,
    match_games: int = 10,
    seed: int = 1,
    threads: Optional[int] = None,
    quiet: bool = False,
) -> List[Dict[str, Any]]:
    """Teach a network to play a game written in Python by self-play (AlphaZero), as ``ply learn`` does.

    The game needs three things beyond the six functions:
    ``encode(state)``, the state as planes of numbers
    (``[planes][rows][columns]``, the same shape for every state) from the
    view of the player to move (their pieces in the first plane, say);
    ``action_index(state, action)``, each action's place among the
    network's outputs (from 0); and ``policy_size``, how many places.

    Each generation plays ``games`` games against itself (PUCT at
    ``simulations`` per move, on ``threads`` threads: every core by
    default), trains ``steps`` minibatches on the last ``window``
    generations' positions, and plays ``match_games`` against the previous
    network and against plain MCTS. The network (``channels`` wide,
    ``blocks`` residual blocks) is saved to ``out`` after each generation;
    search with it by ``solve(game, algo="puct", net=out)``. A line per
    generation goes to ``sys.stderr`` unless ``quiet``. Returns each
    generation's figures (losses, scores, positions per second). The
    defaults are tic-tac-toe's (``ply learn tictactoe``). Ctrl-C stops the
    run; the last generation saved stands.
    """
    counts = dict(generations=generations, games=games, simulations=simulations, channels=channels,
                  steps=steps, minibatch=minibatch, window=window)
    for name, value in counts.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name}= must be a whole number (an int), not {type(value).__name__}")
        if value < 1:
            raise ValueError(f"{name}={value} must be at least 1")
    for name, value in dict(blocks=blocks, match_games=match_games, seed=seed).items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name}= must be a whole number (an int), not {type(value).__name__}")
        if value < 0:
            raise ValueError(f"{name}={value} must be at least 0")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise ValueError(f"threads={threads!r} must be a whole number of at least 1")
    if isinstance(learning_rate, bool) or not isinstance(learning_rate, (int, float)) \
            or not 0 < learning_rate <= 1:
        raise ValueError(f"learning_rate={learning_rate!r} must be a number above 0 and at most 1")
    if not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out= must be a file's path (a str or a Path), not {type(out).__name__}")
    options: Dict[str, Any] = dict(counts, blocks=blocks, match_games=match_games, seed=seed,
                                   learning_rate=float(learning_rate), quiet=bool(quiet))
    if threads is not None:
        options["threads"] = threads
    return cast(List[Dict[str, Any]], json.loads(_ply.learn_game(game, os.fspath(out), json.dumps(options))))


def count(game: str, position: Optional[str] = None, *, moves: Optional[Sequence[Any]] = None,
          params: Optional[Mapping[str, Any]] = None, max_positions: Optional[int] = None) -> CountReport:
    """The distinct positions reachable and how many are terminal: ``ply count ... --json``.

    Each position is kept in memory: the count stops with ``ValueError`` past
    ``max_positions`` (default 10 million). Ctrl-C stops it.
    """
    return cast(CountReport, _builtin("count", game, dict(position=position, moves=moves, params=params,
                                                          max_positions=max_positions)))


def perft(game: str, position: Optional[str] = None, *, depth: int, divide: bool = False,
          moves: Optional[Sequence[Any]] = None, params: Optional[Mapping[str, Any]] = None) -> PerftReport:
    """The number of move sequences of length ``depth``: ``ply perft ... --json``. Ctrl-C stops it."""
    return cast(PerftReport, _builtin("perft", game, dict(position=position, moves=moves, params=params,
                                                          depth=depth, divide=divide)))


def show(game: str, position: Optional[str] = None, *, moves: Optional[Sequence[Any]] = None,
         params: Optional[Mapping[str, Any]] = None) -> ShowReport:
    """The board, whose turn, every legal move and the result once over: ``ply show ... --json``."""
    return cast(ShowReport, _builtin("show", game, dict(position=position, moves=moves, params=params)))


def trace(tree: str, algo: Optional[Algo] = None, *, depth: Optional[int] = None,
          star1: bool = False) -> TraceReport:
    """The step-by-step trace of a search on a tree written out: ``ply trace TREE --json``.

    ``algo``: "minimax", "alphabeta" or "expectiminimax"; by default
    alpha-beta, or expectiminimax for a tree with chance nodes
    (``[p1 child1 p2 child2 ...]``), as the command line chooses.

    >>> ply.trace("((3 5 7) (2 9 1))")["pruned"]
    ['2.2', '2.3']
    """
    body = _request(None, dict(tree=tree, algo=algo, depth=depth, star1=star1))
    return cast(TraceReport, _loads(_ply.call("trace", body)))
