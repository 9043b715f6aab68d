"""ply's searches on games written in Python: the textbook's numbers."""

import pytest

import plysearch as ply
import lesson_games
from lesson_games import TicTacToe, board


def test_tictactoe_minimax_counts_the_whole_tree():
    r = ply.solve(TicTacToe(), algo="minimax")
    assert r["value"] == 0
    assert r["stats"]["nodes"] == 549_946
    assert r["stats"]["leaves"] == 255_168


def test_tictactoe_alphabeta_visits_18297_nodes():
    r = ply.solve(TicTacToe(), algo="alphabeta")
    assert r["value"] == 0
    assert r["stats"]["nodes"] == 18_297


def test_the_same_numbers_as_the_builtin_game():
    for algo in ("minimax", "alphabeta"):
        mine = ply.solve(TicTacToe(), algo=algo, state=board("XO.X..O.."))
        builtin = ply.solve("tictactoe", "XO.X..O..", algo=algo)
        for field in ("value", "best_move", "pv"):
            assert mine[field] == builtin[field], (algo, field)
        assert mine["stats"]["nodes"] == builtin["stats"]["nodes"]


def test_the_fork_position_analysed():
    r = ply.analyze(TicTacToe(), state=board("XO.X..O.."), algo="minimax")
    values = {m["move"]: m["value"] for m in r["moves"]}
    assert values == {"4": 1, "7": 0, "2": -1, "5": -1, "8": -1}
    assert ply.best_move(TicTacToe(), board("XO.X..O.."), algo="alphabeta") == 4


def test_the_coins_module():
    r = ply.solve(lesson_games, algo="minimax")
    assert (r["value"], r["best_move"]) == (1, "1")
    assert ply.best_move(lesson_games) == 1


def test_tables_iterative_deepening_mcts_and_compare():
    game = TicTacToe()
    assert ply.solve(game, algo="alphabeta", tt_mb=1, order=True)["value"] == 0
    assert ply.solve(game, algo="id", time_ms=2000)["value"] == 0
    r = ply.solve(game, algo="mcts", iterations=3000, seed=5, state=board("XO.X..O.."))
    assert r["best_move"] == "4"
    again = ply.solve(game, algo="mcts", iterations=3000, seed=5, state=board("XO.X..O.."))
    assert again["moves"] == r["moves"], "a seed fixes MCTS's result"
    c = ply.compare(game, state=board("XO.X..O.."))
    assert c["agree"] and {row["value"] for row in c["searches"]} == {1}


def test_depth_limits_use_evaluate():
    class Scored(TicTacToe):
        def evaluate(self, state):
            return 5 if state[1][1] == "X" else 0
    r = ply.solve(Scored(), algo="alphabeta", depth=1)
    assert r["value"] == 5 and r["best_move"] == "4"


def test_trace_game_has_the_trace_rows():
    t = ply.trace_game(lesson_games, algo="alphabeta")
    assert t["value"] == 1
    events = [s["event"] for s in t["steps"]]
    assert events[0] == "enter" and events[-1] == "return"
    builtin = ply.trace("((3 5 7) (2 9 1))")
    assert builtin["value"] == 3 and builtin["pruned"] == ["2.2", "2.3"]


def test_moves_are_played_from_the_state():
    r = ply.solve(TicTacToe(), moves=[0, 4], algo="alphabeta")
    assert r["position"].startswith("[['X', None, None], [None, 'O', None]")


def test_a_result_that_changes_its_state_is_named():
    class Mutating(TicTacToe):
        def result(self, state, action):
            state[action // 3][action % 3] = self.player(state)
            return state
    with pytest.raises(ValueError, match=r"result\(state, action\) changed the state it was given \(action 0\)"):
        ply.solve(Mutating(), algo="minimax")


def test_a_player_neither_symbol_is_named():
    class Three(TicTacToe):
        def player(self, state):
            filled = sum(cell is not None for row in state for cell in row)
            return "XOZ"[filled % 3]
    with pytest.raises(ValueError, match="player\\(state\\) returned 'Z', neither 'X'"):
        ply.solve(Three(), algo="minimax")


def test_an_action_not_in_actions_is_named():
    with pytest.raises(ValueError, match=r"move 2 \(0\) is not in actions\(state\)"):
        ply.solve(TicTacToe(), moves=[0, 0])


def test_an_unhashable_state_is_keyed_by_its_contents():
    # No key(): the list-of-lists board gets one made from its cells, and
    # the table finds the same transpositions as with key().
    class NoKey(TicTacToe):
        key = None
    keyed = ply.solve(TicTacToe(), algo="alphabeta", tt_mb=1)
    plain = ply.solve(NoKey(), algo="alphabeta", tt_mb=1)
    assert plain["value"] == keyed["value"] == 0
    assert plain["stats"]["nodes"] == keyed["stats"]["nodes"]


def test_a_key_that_raises_reaches_the_caller():
    class BadKey(TicTacToe):
        def key(self, state):
            raise KeyError("the learner's key")
    with pytest.raises(KeyError, match="the learner's key"):
        ply.solve(BadKey(), algo="alphabeta", tt_mb=1)


def test_exceptions_reach_the_caller_with_their_traceback():
    class Broken(TicTacToe):
        def utility(self, state):
            raise ZeroDivisionError("the learner's bug")
    with pytest.raises(ZeroDivisionError, match="the learner's bug") as info:
        ply.solve(Broken(), algo="minimax")
    assert any(entry.name == "utility" for entry in info.traceback)


def test_a_missing_function_is_named():
    class NoActions:
        def initial_state(self):
            return 0
    with pytest.raises(TypeError, match=r"a game needs player\(\.\.\.\)"):
        ply.solve(NoActions())


class Countdown:
    """A pile of `n` coins; a move takes `takes` of them (0 among them lets
    the game go on for ever, the bug issue 38 met); taking the last wins."""

    def __init__(self, n, takes):
        self.n, self.takes = n, takes

    def initial_state(self):
        return (self.n, "MAX")

    def player(self, state):
        return state[1]

    def actions(self, state):
        return [t for t in self.takes if t <= state[0]]

    def result(self, state, action):
        return (state[0] - action, "MIN" if state[1] == "MAX" else "MAX")

    def terminal(self, state):
        return state[0] == 0

    def utility(self, state):
        # The player who took the last coin is the one not to move.
        return -1 if state[1] == "MAX" else 1


def test_a_long_game_is_searched_on_a_deep_enough_stack():
    # 30,000 plies of recursion: the caller's 8 MiB stack overflowed and
    # killed the interpreter (SIGSEGV) before searches ran on their own
    # thread; Python's own recursion limit would stop at 1,000.
    r = ply.solve(Countdown(30_000, [1]), algo="minimax")
    assert r["value"] == -1  # an even pile: the second player takes the last
    assert r["stats"]["nodes"] == 30_001


def test_a_game_that_never_ends_is_a_clear_error():
    # Taking 0 coins is allowed: minimax follows 0, 0, 0, ... until the
    # longest line any search follows, then says what happened.
    with pytest.raises(ValueError, match="reached 100000 plies"):
        ply.solve(Countdown(5, [0, 1, 2]), algo="minimax")
