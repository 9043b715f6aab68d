"""Poker from Python: CFR's strategy as a dict, checked by OpenSpiel.

OpenSpiel (``pip install open_spiel``) is the independent reference: ply's
average strategy, handed to it information set by information set, has
the NashConv ply reports, and the same as OpenSpiel's own CFR+ solver
after the same iterations.
"""

import importlib.util
from pathlib import Path

import pytest

import plysearch as ply

ROOT = Path(__file__).resolve().parents[3]
spec = importlib.util.spec_from_file_location("cfr_vs_openspiel", ROOT / "scripts" / "cfr_vs_openspiel.py")


def test_kuhn_strategy_is_a_dict_and_the_value_is_minus_one_eighteenth():
    r = ply.solve("kuhn", algo="cfr+", iterations=10_000)
    assert r["method"] == "cfr"
    assert abs(r["value"] + 1 / 18) < 1e-3
    assert r["exploitability"] < 1e-4
    assert set(r["strategy"]) == {f"{c}:{h}" for c in "JQK" for h in ("", "p", "b", "pb")}
    for moves in r["strategy"].values():
        assert set(moves) == {"p", "b"} and abs(sum(moves.values()) - 1) < 1e-9
    # Holding the king after pass-bet, call: at every equilibrium.
    assert r["strategy"]["K:pb"]["b"] > 0.999


def test_one_information_set_and_bad_ones():
    r = ply.analyze("leduc", algo="cfr+", iterations=50, infoset="Ks:r")
    assert [s["name"] for s in r["sets"]] == ["Ks:r"]
    assert r["sets"][0]["player"] == "MIN"
    assert {m["move"] for m in r["sets"][0]["moves"]} == {"f", "c", "r"}
    with pytest.raises(ValueError, match=r"infoset=K:x is not an information set of kuhn: .*: J:, Q:, K:, J:pb"):
        ply.solve("kuhn", infoset="K:x")
    with pytest.raises(ValueError, match="kuhn hides information .* use algo=cfr\\+ "):
        ply.solve("kuhn", algo="minimax")
    with pytest.raises(ValueError, match="cfr\\+ is for games with hidden information"):
        ply.solve("tictactoe", algo="cfr+")
    with pytest.raises(ValueError, match="seed= does not apply to cfr\\+"):
        ply.solve("kuhn", algo="cfr+", seed=3)
    with pytest.raises(ValueError, match="iterations= must be at least 1"):
        ply.solve("kuhn", iterations=0)


@pytest.mark.parametrize("game,iterations", [("kuhn", 300), ("leduc", 100)])
def test_openspiel_measures_the_same_exploitability(game, iterations):
    import pyspiel  # installed by requirements-test.txt

    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    os_game = pyspiel.load_game(tool.OPENSPIEL_NAMES[game])
    r = ply.solve(game, algo="cfr+", iterations=iterations)
    theirs = pyspiel.nash_conv(os_game, tool.openspiel_policy(game, os_game, r["strategy"]))
    assert abs(theirs - r["nash_conv"]) < 1e-8
    solver = pyspiel.CFRPlusSolver(os_game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    assert abs(pyspiel.nash_conv(os_game, solver.average_policy()) - r["nash_conv"]) < 1e-8
    # The first player's value of ply's strategy, played out by OpenSpiel's rules.
    policy = tool.openspiel_policy(game, os_game, r["strategy"])

    def value(state):
        if state.is_terminal():
            return state.returns()[0]
        pairs = state.chance_outcomes() if state.is_chance_node() else policy[state.information_state_string()]
        return sum(p * value(state.child(a)) for a, p in pairs if p > 0)

    assert abs(value(os_game.new_initial_state()) - r["value"]) < 1e-8
