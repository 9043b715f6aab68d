"""A learner's module, as the CS50 AI course has it written, on every
function with the default search, and a learner's bugs named by the
function that has them."""

import copy
import math
import types

import pytest

import plysearch as ply
import cs50_tictactoe


def test_every_function_takes_the_course_board():
    game = cs50_tictactoe
    # The defaults use a table: the list-of-lists board gets a key without key().
    assert ply.solve(game)["value"] == 0
    fork = [["X", "O", None], ["X", None, None], ["O", None, None]]
    values = {m["move"]: m["value"] for m in ply.analyze(game, state=fork)["moves"]}
    assert values["(1, 1)"] == 1 and max(values.values()) == 1
    assert ply.best_move(game, fork) == (1, 1)
    assert ply.compare(game, state=fork)["agree"]
    t = ply.trace_game(game, state=fork, algo="alphabeta")
    assert t["value"] == 1


def test_a_set_of_actions_is_tried_in_sorted_order():
    # The textbook's 18,297 nodes (the squares in row order), whatever
    # order Python's set happens to hold them in.
    r = ply.solve(cs50_tictactoe, algo="alphabeta")
    assert (r["value"], r["stats"]["nodes"]) == (0, 18_297)
    assert ply.solve(cs50_tictactoe, algo="minimax")["stats"]["nodes"] == 549_946


def test_equal_boards_share_table_entries():
    # Transpositions meet in the table: fewer nodes with it than without,
    # the same value (the structural key sees equal boards as equal).
    plain = ply.solve(cs50_tictactoe, algo="alphabeta")
    table = ply.solve(cs50_tictactoe, algo="alphabeta", tt_mb=1)
    assert table["value"] == plain["value"] == 0
    assert table["stats"]["nodes"] < plain["stats"]["nodes"]


def bugged(**functions):
    """cs50_tictactoe with some functions replaced."""
    game = types.SimpleNamespace(**{name: getattr(cs50_tictactoe, name) for name in
                                    ("initial_state", "player", "actions", "result", "terminal", "utility")})
    for name, f in functions.items():
        setattr(game, name, f)
    return game


@pytest.mark.parametrize("algo", ["minimax", "alphabeta", "mcts", None])
def test_no_actions_in_a_state_that_is_not_terminal(algo):
    game = bugged(terminal=lambda board: cs50_tictactoe.winner(board) is not None)
    with pytest.raises(ValueError, match=r"actions\(state\) returned no actions, but terminal\(state\) is False"):
        ply.solve(game, algo=algo, iterations=200 if algo == "mcts" else None)


def test_result_returning_none():
    def result(board, action):
        new = copy.deepcopy(board)
        new[action[0]][action[1]] = cs50_tictactoe.player(board)
    with pytest.raises(TypeError, match=r"result\(state, action\) returned None \(action \(0, 0\)\)"):
        ply.solve(bugged(result=result), algo="minimax")


def test_actions_returning_none_or_a_number():
    def actions(board):
        {(i, j) for i in range(3) for j in range(3) if board[i][j] is None}
    with pytest.raises(TypeError, match=r"actions\(state\) returned None"):
        ply.solve(bugged(actions=actions), algo="minimax")
    with pytest.raises(TypeError, match=r"actions\(state\) returned 9 \(int\), which is not a collection"):
        ply.solve(bugged(actions=lambda board: 9), algo="minimax")


@pytest.mark.parametrize("algo", ["minimax", "alphabeta", "mcts"])
def test_utility_outside_the_scores_a_game_may_give(algo):
    # A win scored as a million (or infinity, or a fraction) would be read
    # by the engine as one of its own bounds: named, with the state.
    def huge(board):
        return 10**6 * cs50_tictactoe.utility(board)
    with pytest.raises(ValueError, match=r"utility\(state\) returned -?1000000, outside the scores a game may give \(-999999 to 999999\).*state \[\["):
        ply.solve(bugged(utility=huge), algo=algo, iterations=200 if algo == "mcts" else None)
    with pytest.raises(TypeError, match=r"utility\(state\) must return an integer .*got 0\.5"):
        ply.solve(bugged(utility=lambda board: 0.5), algo=algo, iterations=200 if algo == "mcts" else None)
    # The largest allowed magnitude is searched as any other score.
    r = ply.solve(bugged(utility=lambda board: 999_999 * cs50_tictactoe.utility(board)), algo=algo,
                  iterations=200 if algo == "mcts" else None)
    if algo != "mcts":
        assert r["value"] == 0


def test_a_misspelt_algo_is_named_in_python_words():
    for game in ("tictactoe", cs50_tictactoe):
        with pytest.raises(ValueError, match=r"algo='minmax' is not one of ply's searches: minimax, alphabeta, .*did you mean algo='minimax'\?"):
            ply.solve(game, algo="minmax")
    with pytest.raises(ValueError, match=r"algo='alpha-beta' .*did you mean algo='alphabeta'\?"):
        ply.trace("((3 5) (2 9))", algo="alpha-beta")
    with pytest.raises(TypeError, match=r"algo= must be a search's name \(a str\), not int"):
        ply.analyze("tictactoe", algo=3)


class Coins:
    """A pile of coins; a move takes some of them, the one who takes the last
    wins. ``takes`` may include 0 (a move that changes nothing: the game can
    go on for ever) or be only 0 (it never ends). Counts result() calls."""

    def __init__(self, n, takes):
        self.n, self.takes, self.plays = n, takes, 0

    def initial_state(self):
        return (self.n, "MAX")

    def player(self, state):
        return state[1]

    def actions(self, state):
        return [t for t in self.takes if t <= state[0]]

    def result(self, state, action):
        self.plays += 1
        return (state[0] - action, "MIN" if state[1] == "MAX" else "MAX")

    def terminal(self, state):
        return state[0] == 0

    def utility(self, state):
        return -1 if state[1] == "MAX" else 1


ENDLESS = "a line reached 100000 plies and the game had not ended"


@pytest.mark.parametrize("algo", ["minimax", "alphabeta"])
def test_a_game_with_a_move_that_changes_nothing_is_named(algo):
    # The student's own minimax raises RecursionError here; ply names the
    # likely cause after one line of 100,000 plies (0.2-0.3 s), not a crash.
    game = Coins(5, [0, 1, 2])
    with pytest.raises(ValueError, match=ENDLESS) as raised:
        ply.solve(game, algo=algo)
    assert "taking 0, a pass" in str(raised.value)
    assert game.plays <= 100_000 + 10_000  # one line (alpha-beta looks every 10,000 nodes)


def test_mcts_on_a_game_that_never_ends_is_named():
    # Every playout of this game goes on for ever: the first one to reach
    # 100,000 plies stops the search (75 ms), where a playout counted as a
    # draw made each of the 100 iterations take that long.
    game = Coins(5, [0])
    with pytest.raises(ValueError, match=ENDLESS):
        ply.solve(game, algo="mcts", iterations=100)
    assert game.plays <= 100_000 + 10
    # A game whose random playouts end (taking 0 is one move of three) is
    # a game MCTS can search.
    r = ply.solve(Coins(5, [0, 1, 2]), algo="mcts", iterations=500)
    assert r["stats"]["iterations"] == 500


def test_a_line_of_32000_plies_is_searched():
    # Deeper than the caller's 8 MiB stack holds (16,000 did, 32,000
    # crashed the interpreter): the search runs on its own deep stack.
    r = ply.solve(Coins(32_000, [1]), algo="alphabeta")
    assert (r["value"], r["stats"]["nodes"]) == (-1, 32_001)


def test_the_course_module_is_a_game():
    # The protocol a type checker reads; a module with the six functions fits it.
    assert isinstance(cs50_tictactoe, ply.Game)
    assert not isinstance(object(), ply.Game)


def test_mcts_one_iteration_at_a_time_on_a_builtin_game_and_the_course_module():
    # Built in: iteration 1,000 of the lesson's position ends on the tree
    # that analyze grows with the same seed (the centre: 856 visits).
    r = ply.trace_mcts("tictactoe", ".OX..X..O", iterations=1000, seed=1)
    a = ply.analyze("tictactoe", ".OX..X..O", algo="mcts", iterations=1000, seed=1)
    assert r["kind"] == "mcts_trace" and r["iterations"] == 1000
    assert [(m["move"], m["visits"]) for m in r["moves"]] == [(m["move"], m["visits"]) for m in a["moves"]]
    assert r["moves"][0]["move"] == "4" and r["moves"][0]["visits"] == 856
    it = r["iteration"]
    for step in it["selection"]:
        # The child followed has the highest UCT value, recomputed here.
        n = step["visits"]
        def uct(ch):
            return ch["mean"] + 1.414213562 * math.sqrt(math.log(n) / ch["visits"])
        best = max(uct(ch) for ch in step["children"])
        chosen = next(ch for ch in step["children"] if ch["move"] == step["chosen"])
        assert abs(uct(chosen) - best) < 1e-5 and abs(chosen["uct"] - uct(chosen)) < 1e-5
    assert it["result"] in (0.0, 0.5, 1.0)
    # The learner's own module: the first iteration expands one of the
    # nine squares, drawn from all nine, and plays the game out.
    first = ply.trace_mcts(cs50_tictactoe, iterations=1, seed=3)["iteration"]
    assert first["selection"] == [] and len(first["untried"]) == 9
    assert first["expanded"] in first["untried"]
    assert len(first["playout"]) >= 4  # nobody wins in fewer than five marks
    with pytest.raises(ValueError, match="iterations"):
        ply.trace_mcts("tictactoe", iterations=0)
