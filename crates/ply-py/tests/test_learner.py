"""A learner's module, as the CS50 AI course has it written, on every
function with the default search, and a learner's bugs named by the
function that has them."""

import copy
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
        ply.solve(game, algo=algo, iterations=200)


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


def test_a_misspelt_algo_is_named_in_python_words():
    for game in ("tictactoe", cs50_tictactoe):
        with pytest.raises(ValueError, match=r"algo='minmax' is not one of ply's searches: minimax, alphabeta, .*did you mean algo='minimax'\?"):
            ply.solve(game, algo="minmax")
    with pytest.raises(ValueError, match=r"algo='alpha-beta' .*did you mean algo='alphabeta'\?"):
        ply.trace("((3 5) (2 9))", algo="alpha-beta")
    with pytest.raises(TypeError, match=r"algo= must be a search's name \(a str\), not int"):
        ply.analyze("tictactoe", algo=3)
