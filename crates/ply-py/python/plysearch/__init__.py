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
from typing import Any, Dict, List, Mapping, Optional, Sequence

from . import _ply

__all__ = [
    "games", "solve", "analyze", "compare", "count", "perft", "show", "trace",
    "best_move", "trace_game", "__version__",
]
__version__: str = _ply.__version__

class Report(dict):
    """A result: the dict of the command line's JSON, printed as indented JSON."""

    def __repr__(self) -> str:
        return json.dumps(self, indent=2, ensure_ascii=False)

    __str__ = __repr__


def _loads(text: str) -> Report:
    return json.loads(text, object_hook=Report)


_ALGOS: List[str] = [a["name"] for a in json.loads(_ply.games())["algorithms"]]


def _check_algo(algo: Any) -> None:
    """``algo=`` names one of ply's searches, or says which it could mean."""
    if algo is None or algo in _ALGOS:
        return
    if not isinstance(algo, str):
        raise TypeError(f"algo= must be a search's name (a str), not {type(algo).__name__}")
    close = difflib.get_close_matches(algo, _ALGOS, n=1)
    hint = f"; did you mean algo={close[0]!r}?" if close else ""
    raise ValueError(f"algo={algo!r} is not one of ply's searches: {', '.join(_ALGOS)}{hint}")


def _request(game: Optional[str], kw: Mapping[str, Any]) -> str:
    """The JSON request for the command line's flags given as keywords."""
    _check_algo(kw.get("algo"))
    body: Dict[str, Any] = {} if game is None else {"game": game}
    for name, value in kw.items():
        if value is None or value is False:
            continue
        if name == "moves":
            value = [str(m) for m in value]
        if name == "params":
            value = {k: str(v) for k, v in value.items()}
        body[name] = value
    return json.dumps(body)


def _builtin(command: str, game: str, kw: Mapping[str, Any]) -> Report:
    if not isinstance(game, str):
        raise TypeError(f"game must be a built-in game's name (a str), not {type(game).__name__}")
    return _loads(_ply.call(command, _request(game, kw)))


def _python(command: str, game: Any, state: Any, moves: Optional[Sequence[Any]], kw: Mapping[str, Any]) -> Report:
    if kw.get("position") is not None or kw.get("params"):
        raise ValueError("a Python game takes state= (and moves=[...] as actions), not position= or params=")
    opts = {k: v for k, v in kw.items() if k not in ("position", "params")}
    text = _ply.search_game(game, command, _request("python", opts), state, list(moves) if moves else None)
    return _loads(text)


def games() -> Report:
    """The built-in games, their parameters and notations, and the algorithms: ``ply list --json``."""
    return _loads(_ply.games())


def solve(
    game: Any,
    position: Optional[str] = None,
    *,
    state: Any = None,
    moves: Optional[Sequence[Any]] = None,
    params: Optional[Mapping[str, Any]] = None,
    algo: Optional[str] = None,
    depth: Optional[int] = None,
    time_ms: Optional[int] = None,
    tt_mb: Optional[int] = None,
    order: bool = False,
    pvs: bool = False,
    fast_win: bool = False,
    seed: Optional[int] = None,
    iterations: Optional[int] = None,
    star1: bool = False,
    weak: bool = False,
    vcf: bool = False,
) -> Report:
    """The value of a position, the best move, the principal variation and what the search cost.

    ``game`` is a built-in game's name (then ``position`` in its notation,
    ``moves`` in its move notation, ``params`` its parameters) or a game
    written in Python (then ``state``, default its initial state, and
    ``moves``, actions played from it first).

    ``algo``: "minimax", "alphabeta", "id" (iterative deepening),
    "expectiminimax", "mcts", "score" (the exact solver), "nimber";
    default: the game's engine. ``depth`` limits the search (an evaluation
    scores the horizon), ``time_ms`` bounds iterative deepening and MCTS,
    ``tt_mb``, ``order``, ``pvs``, ``fast_win`` add engine features to
    alpha-beta,
    ``seed`` and ``iterations`` are MCTS's. ``vcf=True`` runs only the
    game's threat search (gomoku: a victory by continuous fours), returning
    ``vcf`` (the winning line, or ``None``) and ``complete``.

    Returns the dict ``ply solve ... --json`` prints: ``value`` (MAX's
    view), ``best_move``, ``pv``, ``stats`` (``nodes``, ``leaves``, ...).
    Raises ``ValueError`` with the command line's message on a bad
    argument; a Python game's exceptions pass through.

    >>> ply.solve("tictactoe", algo="minimax")["stats"]["nodes"]
    549946
    """
    kw = dict(position=position, moves=moves, params=params, algo=algo, depth=depth, time_ms=time_ms,
              tt_mb=tt_mb, order=order, pvs=pvs, fast_win=fast_win, seed=seed, iterations=iterations,
              star1=star1, weak=weak, vcf=vcf)
    if isinstance(game, str):
        if state is not None:
            raise ValueError("state= is for games written in Python; give a built-in game's position=")
        return _builtin("solve", game, kw)
    del kw["moves"]
    return _python("solve", game, state, moves, kw)


def analyze(game: Any, position: Optional[str] = None, **options: Any) -> Report:
    """The value of every legal move, best first: ``ply analyze ... --json``.

    Takes what :func:`solve` takes. Each entry of ``moves`` has ``move``
    (for a Python game, ``str(action)``), ``value`` (MAX's view) and, for
    exact searches, ``proven`` and ``distance`` (plies to the end).
    """
    return _dispatch("analyze", game, position, options)


def compare(game: Any, position: Optional[str] = None, **options: Any) -> Report:
    """Every exact search on one position, side by side: ``ply compare ... --json``.

    Options: ``depth``, ``tt_mb``, and ``state``/``moves`` (Python games)
    or ``moves``/``params`` (built-in games). The searches must agree
    (``agree``); if they do not, ``ValueError`` says which.
    """
    return _dispatch("compare", game, position, options)


def trace_game(game: Any, *, state: Any = None, moves: Optional[Sequence[Any]] = None,
               algo: Optional[str] = None, depth: Optional[int] = None) -> Report:
    """The step-by-step trace of a search on a game written in Python: the rows ``ply trace`` prints.

    Each step has ``node`` (the path of actions), ``player``, ``alpha``,
    ``beta``, ``value`` and ``event`` (enter, leaf, update, cutoff,
    return); ``pruned`` names the leaves alpha-beta never looked at.
    Traces are capped at 25,000 nodes: give a ``depth`` for bigger games.
    """
    return _python("trace", game, state, moves, dict(algo=algo, depth=depth))


def best_move(game: Any, state: Any = None, **options: Any) -> Any:
    """The best action in ``state`` (default: the start) of a game written in Python, as an action object.

    Takes :func:`solve`'s options (``algo``, ``depth``, ...). ``None`` when
    the game is over.
    """
    report = _python("solve", game, state, options.pop("moves", None), options)
    chosen = report.get("best_move")
    if chosen is None:
        return None
    at = state if state is not None else game.initial_state()
    for action in game.actions(at):
        if str(action) == chosen:
            return action
    raise RuntimeError(f"the best move {chosen!r} is not among actions(state)")


def count(game: str, position: Optional[str] = None, **options: Any) -> Report:
    """The distinct positions reachable and how many are terminal: ``ply count ... --json``."""
    return _builtin("count", game, dict(position=position, **options))


def perft(game: str, position: Optional[str] = None, *, depth: int, divide: bool = False, **options: Any) -> Report:
    """The number of move sequences of length ``depth``: ``ply perft ... --json``."""
    return _builtin("perft", game, dict(position=position, depth=depth, divide=divide, **options))


def show(game: str, position: Optional[str] = None, **options: Any) -> Report:
    """The board, whose turn, every legal move and the result once over: ``ply show ... --json``."""
    return _builtin("show", game, dict(position=position, **options))


def trace(tree: str, algo: Optional[str] = None, **options: Any) -> Report:
    """The step-by-step trace of a search on a tree written out: ``ply trace TREE --json``.

    ``algo``: "minimax", "alphabeta" or "expectiminimax"; by default
    alpha-beta, or expectiminimax for a tree with chance nodes
    (``[p1 child1 p2 child2 ...]``), as the command line chooses.

    >>> ply.trace("((3 5 7) (2 9 1))")["pruned"]
    ['2.2', '2.3']
    """
    body = _request(None, dict(tree=tree, algo=algo, **options))
    return _loads(_ply.call("trace", body))


def _dispatch(command: str, game: Any, position: Optional[str], options: Dict[str, Any]) -> Report:
    if isinstance(game, str):
        if "state" in options:
            raise ValueError("state= is for games written in Python; give a built-in game's position=")
        return _builtin(command, game, dict(position=position, **options))
    state = options.pop("state", None)
    moves = options.pop("moves", None)
    return _python(command, game, state, moves, dict(position=position, **options))
