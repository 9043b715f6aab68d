"""A game written in Python, learned: encode/action_index/policy_size make
it a game a network sees, so PUCT searches it and ply.learn trains it.
The oracle: tic-tac-toe written in Python and encoded as ply's own reads
the built-in network exactly as the built-in game does."""

import pathlib

import pytest

import plysearch as ply
from lesson_games import TicTacToe, board

ROOT = pathlib.Path(__file__).resolve().parents[3]


class Seen(TicTacToe):
    """The lesson's tic-tac-toe as a network sees it: the mover's marks,
    then the opponent's, on the 3x3 board; each square its own output."""

    policy_size = 9

    def encode(self, state):
        me = self.player(state)
        return [[[1.0 if cell == me else 0.0 for cell in row] for row in state],
                [[1.0 if cell not in (me, None) else 0.0 for cell in row] for row in state]]

    def action_index(self, state, action):
        return action


@pytest.mark.parametrize("position", [".OX..X..O", "X...O....", ".........", "XX.OO...."])
def test_a_python_game_reads_the_built_in_network_as_the_built_in_game(position):
    """PUCT over nets/tictactoe.safetensors: the Python game's root moves,
    visits and priors are the built-in game's, position by position."""
    net = ROOT / "nets" / "tictactoe.safetensors"
    mine = ply.analyze(Seen(), state=board(position), algo="puct", simulations=200, net=net)
    theirs = ply.analyze("tictactoe", position, algo="puct", simulations=200)
    assert [(m["move"], m["visits"]) for m in mine["moves"]] == [(m["move"], m["visits"]) for m in theirs["moves"]]
    for a, b in zip(mine["moves"], theirs["moves"]):
        assert a["prior"] == pytest.approx(b["prior"], abs=1e-5)


def test_a_python_games_puct_trace_is_the_built_in_games():
    """trace_puct on the Python game over the built-in network: the same
    steps, priors and value as the built-in game's trace."""
    net = ROOT / "nets" / "tictactoe.safetensors"
    mine = ply.trace_puct(Seen(), state=board(".OX..X..O"), simulations=5, net=net)["simulation"]
    theirs = ply.trace_puct("tictactoe", ".OX..X..O", simulations=5)["simulation"]
    assert [s["chosen"] for s in mine["selection"]] == [s["chosen"] for s in theirs["selection"]]
    assert [p["move"] for p in mine["priors"]] == [p["move"] for p in theirs["priors"]]
    assert mine["value"] == pytest.approx(theirs["value"], abs=1e-5)


def test_learn_trains_and_saves_a_network_puct_then_plays_with(tmp_path, capsys):
    out = tmp_path / "mine.safetensors"
    figures = ply.learn(Seen(), out, generations=2, games=6, simulations=8, channels=8, blocks=1, steps=4,
                        minibatch=16, match_games=2, threads=2)
    assert [g["generation"] for g in figures] == [1, 2]
    assert all(g["games"] == 6 and g["positions"] >= 6 * 5 for g in figures)
    assert all(0 <= g["vs_mcts"] <= 1 for g in figures)
    assert "generation 2/2" in capsys.readouterr().err
    r = ply.solve(Seen(), state=board("XX.OO...."), algo="puct", simulations=30, net=out)
    assert r["best_move"] in {str(a) for a in Seen().actions(board("XX.OO...."))}
    assert sum(m["visits"] for m in r["moves"]) == 30


def test_what_a_learned_game_gets_wrong_is_named(tmp_path):
    out = tmp_path / "x.safetensors"
    with pytest.raises(TypeError, match="to be learned, a game needs encode"):
        ply.learn(TicTacToe(), out, generations=1)
    with pytest.raises(ValueError, match="a game written in Python has no built-in network: give net="):
        ply.solve(Seen(), algo="puct")
    with pytest.raises(ValueError, match="puct needs a network, which sees a game written in Python"):
        ply.solve(TicTacToe(), algo="puct")

    class NoIndex(TicTacToe):
        def encode(self, state):
            return [[[0.0] * 3] * 3]
    with pytest.raises(TypeError, match="needs action_index"):
        ply.learn(NoIndex(), out)

    class Shared(Seen):
        def action_index(self, state, action):
            return action // 2
    with pytest.raises(ValueError, match="gave 0 to both 0 and 1"):
        ply.solve(Shared(), algo="puct", net=ROOT / "nets" / "tictactoe.safetensors")

    class Growing(Seen):
        def encode(self, state):
            planes = super().encode(state)
            return planes if self.player(state) == "X" else planes + planes
    with pytest.raises(ValueError, match=r"encode\(state\) returned \[4, 3, 3\]"):
        ply.learn(Growing(), out, generations=1, games=2, simulations=4, channels=4, blocks=0, steps=1,
                  match_games=0, quiet=True)

    class Flat(Seen):
        def encode(self, state):
            return [0.0] * 18
    with pytest.raises(TypeError, match=r"encode\(state\) must return planes"):
        ply.learn(Flat(), out)
    with pytest.raises(ValueError, match="games=0 must be at least 1"):
        ply.learn(Seen(), out, games=0)
    with pytest.raises(ValueError, match="a network for"):
        # A network whose shape the game does not fit: Connect Four's.
        ply.solve(Seen(), algo="puct", net=ROOT / "nets" / "connect4-supervised.safetensors")


def test_an_exception_mid_search_reaches_the_caller():
    """The game's own exception, raised deep in a PUCT search, is what the
    caller gets (the search unwinds through positions left with no moves)."""
    class Tired(Seen):
        calls = 0

        def actions(self, state):
            Tired.calls += 1
            if Tired.calls > 40:
                raise RuntimeError("tired of moving")
            return super().actions(state)
    with pytest.raises(RuntimeError, match="tired of moving"):
        ply.solve(Tired(), algo="puct", simulations=400, net=ROOT / "nets" / "tictactoe.safetensors")
