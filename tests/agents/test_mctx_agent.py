"""The mctx search agent (``mctx:PATH`` / ``mctx:trained``): legal, seeded, finds a win,
refuses bad options and games whose twin cannot convert positions.

Few moves and few simulations: every new option set compiles a search."""

from __future__ import annotations

import numpy as np
import pytest

from moon_agents.net_weights import array_shapes, load_net, save_net
from moon_agents.search.mctx_agent import MctxAgent, convertible_env_ids
from moon_agents.search.mctx_spec import MctxOptions, parse_mctx_spec
from moon_agents.zoo import TRAINED_DIR, make_agent
from moon_envs.core.game import CHANCE, ConfigError
from moon_envs.core.view import AgentView
from moon_envs.jupiter.config import PROBE
from moon_envs.jupiter.rules import JupiterGame

SPEC = "mctx:trained,simulations=8,considered=4"


def _game() -> JupiterGame:
    _, description = load_net(TRAINED_DIR / "jupiter.npz")
    return JupiterGame(**description["game_config"])


def _positions(n: int, seed: int) -> list:
    """``n`` positions with a seat to move, from one random game (and more if needed)."""
    game, rng, out = _game(), np.random.default_rng(seed), []
    while len(out) < n:
        s = game.new_initial_state()
        while not s.is_terminal() and len(out) < n:
            if s.current_player() == CHANCE:
                ids = [o for o, _ in s.chance_outcomes()]
                s.apply_chance_outcome(int(rng.choice(ids)))
                continue
            out.append(s.clone())
            s.apply_action(int(rng.choice(np.flatnonzero(s.legal_actions_mask()))))
    return out


def test_legal_and_seeded() -> None:
    positions = _positions(6, seed=1)
    first = make_agent(SPEC, "jupiter", seed=3)
    again = make_agent(SPEC, "jupiter", seed=3)
    moves = []
    for s in positions:
        view = AgentView.of(s)
        a = first.act(view)
        assert view.action_mask[a] == 1
        assert again.act(AgentView.of(s.clone())) == a
        moves.append(a)
    assert len(set(moves)) > 1  # it plays the position, not one fixed action


def _last_cell_position(game: JupiterGame):
    """Seat 0 to move, one empty cell (0): a probe there scores the two 6s in line and
    wins 22-15; rolling instead puts a die there, which scores only for seat 1's probes
    in line (cells 2, 3, 8, 12), and seat 0 loses."""
    s = game.new_initial_state()
    cells = np.zeros(16, np.int8)
    cells[[1, 4]] = 6
    cells[[6, 11]] = 2
    cells[[2, 3, 8, 12, 13, 14]] = PROBE + 1
    cells[[5, 7, 9, 10, 15]] = PROBE + 0
    s.cell = cells
    s.empty_cells = 1
    s.probes_left = np.array([1, 0])
    s.dice_left = 2
    s.points = np.array([10, 15])
    s.player, s.rolled, s.stage = 0, 0, "move"
    s.validate()
    return s


def test_finds_the_winning_move_with_a_blank_network(tmp_path) -> None:
    """A network with zero values whose prior prefers the losing roll: only the search
    (the twin's terminal rewards, read for the right seat) finds the winning probe."""
    game = _game()
    _, description = load_net(TRAINED_DIR / "jupiter.npz")
    hidden = description["hidden"]  # the shipped architecture: its compile is shared
    shapes = array_shapes(description["observation_size"], description["num_actions"], hidden)
    blank = {k: np.zeros(v, np.float32) for k, v in shapes.items()}
    blank["policy.bias"][game.roll_action] = 2.0
    keep = ("env_id", "game", "game_config", "observation_size", "num_actions")
    keep += ("algorithm", "activation")
    path = save_net(
        tmp_path / "blank.npz",
        blank,
        {**{k: description[k] for k in keep}, "hidden": hidden},
    )
    agent = make_agent(f"mctx:{path},simulations=8,considered=4", "jupiter", seed=0)
    assert agent._search is make_agent(SPEC, "jupiter")._search  # one compile for both
    state = _last_cell_position(game)
    view = AgentView.of(state)
    assert sorted(view.legal_actions.tolist()) == [0, game.roll_action]
    assert agent.act(view) == game.probe_action(0)


def test_beats_random_play() -> None:
    from moon_agents.evaluation.tournament import tournament

    result = tournament("jupiter_v0", [SPEC, "random"], games=4, seed=100000)
    assert result.stats[SPEC].wins >= 3


@pytest.mark.parametrize(
    "spec, words",
    [
        ("mctx:", "no network named"),
        ("mctx:trained,simulations=0", r"simulations=0 is not allowed; allowed values: "),
        ("mctx:trained,simulations=4097", r"simulations=4097 .*integers 1\.\.4096"),
        ("mctx:trained,simulations=x", "simulations='x' is not allowed"),
        ("mctx:trained,considered=65", r"considered=65 .*integers 1\.\.64"),
        ("mctx:trained,samples=0", r"samples=0 .*integers 1\.\.64"),
        ("mctx:trained,gumbel=-1", r"gumbel=-1.0 .*numbers 0\.\.10"),
        ("mctx:trained,gumbel=nan", r"gumbel=nan .*numbers 0\.\.10"),
        ("mctx:trained,margin=-0.5", r"margin=-0.5 .*numbers 0\.\.10"),
        ("mctx:trained,depth=3", "unknown option 'depth'; allowed options: simulations, "),
        ("mctx:trained,simulations=4,simulations=8", "given twice"),
    ],
)
def test_bad_options_refused(spec: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        parse_mctx_spec(spec)


def test_options_read() -> None:
    path, options = parse_mctx_spec("mctx:runs/a,b/model.npz,simulations=12,gumbel=0.5")
    assert path == "runs/a,b/model.npz"
    assert options == MctxOptions(simulations=12, gumbel=0.5)
    assert parse_mctx_spec("mctx:trained,margin=1")[1].margin == 1.0
    with pytest.raises(ConfigError, match="simulations=True"):
        MctxOptions(simulations=True)


def test_games_without_a_converter_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shipped network whose twin cannot convert Python positions is refused when the
    agent is made, naming the twins that can (every shipped network's twin converts today,
    so one game's converter is taken away)."""
    from moon_envs.jax import python_states

    converters = {k: v for k, v in python_states.CONVERTERS.items() if k != "moonstar_v1"}
    monkeypatch.setattr(python_states, "CONVERTERS", converters)
    assert load_net(TRAINED_DIR / "moonstar.npz")[1]["env_id"] == "moonstar_v1"
    with pytest.raises(ConfigError, match=r"cannot convert Python positions yet; mctx: plays"):
        make_agent("mctx:trained", "moonstar", seed=0)
    assert "jupiter_v0" in convertible_env_ids()


def test_a_game_of_other_parameters_is_refused() -> None:
    agent = MctxAgent(TRAINED_DIR / "jupiter.npz", MctxOptions(simulations=2), seed=0)
    other = JupiterGame(num_players=2, line_features=False)
    with pytest.raises(ConfigError, match="line_features"):
        agent.reset(other, 0)
