"""The oracle's Game 11 side bets, and ``oracle:back_made=true`` (moon_agents.heuristics).

On a hand-built round whose optimum the solver gives, the oracle bets against a bid it
knows cannot be made and stays out otherwise; with ``back_made=true`` it also backs a
bid that can be made, with its whole score. The spec's field and values are checked.
"""

from __future__ import annotations

import pytest

from moon_agents.base import AgentView
from moon_agents.heuristics.moonstar import MoonstarOracleAgent
from moon_agents.zoo import make_agent
from moon_envs.core.game import ConfigError
from moon_envs.moonstar import solver
from tests.moonstar.test_rules import MOONS, PLANETS, set_round, start

DICE = [1, 1, 2, 3, 4, 5, 6]


def at_bets(bid: int) -> tuple:
    """Two players, Game 11: seat 1 has won the auction with ``bid`` and bet; seat 0 to bet."""
    g, st = start(n=2, game=11)
    st.points[:] = [40, 60]
    set_round(st, PLANETS, MOONS, DICE)
    while st.phase == "auction":
        seat = st.current_player()
        st.apply_action(g.bid_action(bid) if seat == 1 and st.bidder != 1 else g.a_pass)
    assert st.phase == "bets" and st.current_player() == 1 and st.bidder == 1
    st.apply_action(g.bet_action(False, 0))
    assert st.phase == "bets" and st.current_player() == 0
    return g, st


def optimum() -> int:
    _, st = at_bets(20)
    return solver.solve(st.situation(), with_plan=False).total


@pytest.mark.parametrize("back_made", [False, True])
def test_a_bid_that_can_be_made(back_made: bool) -> None:
    opt = optimum()
    g, st = at_bets(opt)
    top = len(g.config.bet_fractions) - 1
    oracle = MoonstarOracleAgent(seed=0, back_made=back_made)
    action = oracle.act(AgentView.of(st))
    assert action == g.bet_action(False, top if back_made else 0)
    assert oracle.best_actions(AgentView.of(st)) == [action]
    st.apply_action(action)  # legal
    assert st.bet_stake[0] == (40 if back_made else 0)


@pytest.mark.parametrize("back_made", [False, True])
def test_a_bid_above_the_optimum_is_bet_against_with_everything(back_made: bool) -> None:
    g, st = at_bets(optimum() + 1)
    top = len(g.config.bet_fractions) - 1
    action = MoonstarOracleAgent(seed=0, back_made=back_made).act(AgentView.of(st))
    assert action == g.bet_action(True, top)


def test_the_zoo_spec() -> None:
    agent = make_agent("oracle:back_made=true", "moonstar", seed=0)
    assert isinstance(agent, MoonstarOracleAgent) and agent.back_made
    assert agent.name == "oracle:back_made=true"
    assert not make_agent("oracle:back_made=false", "moonstar", seed=0).back_made
    assert not make_agent("oracle", "moonstar", seed=0).back_made
    with pytest.raises(ConfigError, match=r"back_made='yes' is not allowed; allowed values"):
        make_agent("oracle:back_made=yes", "moonstar")
    with pytest.raises(ConfigError, match=r"must read back_made=true or back_made=false"):
        make_agent("oracle:stake=2", "moonstar")
