"""Moonstar baseline agents: a greedy heuristic and a solver-backed oracle.

**MoonstarHeuristicAgent** (the "greedy" rung):

* *play*: moon by moon, the move with the largest immediate gain (planet value of the
  landing star, doubled on the red star; Game 7: the square's increase ``2c + 1``; Game 8:
  the chain's next value), first such move on ties;
* *bidding*: its own estimate is the total of that greedy play from the current position;
  it bids the estimate at once when it exceeds the high bid, else passes; Game 10: it
  challenges a high bid above its estimate + 10; Game 11: as bidder it backs "made" with
  the largest stake not above half its score, otherwise it does not bet;
* *setup*: uniformly random legal placements; Game 6: the highest planet; Game 12: the
  first menu entry.

**MoonstarOracleAgent** (the top rung):

* *play*: the exact plan of :func:`moon_envs.moonstar.solver.solve`, solved once per round
  and followed move by move (re-solved if the position left the plan);
* *bidding*: it bids the round's exact optimum ``opt`` when ``opt`` beats the high bid —
  a bid it is sure to make. Exception: as organizer, when every other player has passed
  without bidding, it passes (taking the +20 for no bid) unless ``opt > 20``. Game 10: it
  challenges any high bid above ``opt`` (that bid cannot be made). Game 11: it backs
  "made" with its whole score when it is the bidder, "failed" with its whole score when
  the bid exceeds ``opt``, and does not bet otherwise; ``oracle:back_made=true`` also
  backs "made" with its whole score on another player's bid of at most ``opt`` (a bid
  that can be made: worth it against a bidder who makes such bids, a loss against one
  who does not);
* *setup* (as organizer, to make the round hard so that nobody bids): planets evenly
  spaced round the ring, then each moon on the star where the dice reach the least planet
  value (with planets 3 stars apart and moons on planet stars, only 3s and 6s reach a
  planet); without planets, moons spread 5 stars apart; Game 6: the solver's red star;
  Game 12: the first menu entry.

Both read the position through ``view.sample_state(rng)`` (nothing hidden is used: side
bets are sealed in the determinised state).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from moon_agents.base import AgentView, legal_actions
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote
from moon_envs.moonstar import solver
from moon_envs.moonstar.rules import MoonstarGame, MoonstarState
from moon_envs.moonstar.situation import landing_value
from moon_envs.moonstar.variants import MAX_BID, MIN_BID, NUM_STARS

NO_BID_BONUS = 20


def _check(view: AgentView) -> None:
    if not isinstance(view.game, MoonstarGame):
        raise ConfigError(f"Moonstar agents play moonstar only, not {view.game.spec.name}")


def _first_dice(state: MoonstarState) -> dict[int, int]:
    """Face -> the first free die showing it (the only one the mask offers)."""
    out: dict[int, int] = {}
    for d, face in enumerate(state.dice.tolist()):
        if face and not state.die_used[d] and face not in out:
            out[face] = d
    return out


def greedy_moves(state: MoonstarState) -> tuple[int, list[tuple[int, int, int]]]:
    """Greedy play from ``state`` (play position): (total gained, moves as (moon, die, dir))."""
    g = state.game
    r = state.rules
    nd = solver.num_directions(r.movement)
    stars = state.moon_star.tolist()
    moved = state.moon_moved.tolist()
    free = [(d, f) for d, f in enumerate(state.dice.tolist()) if f and not state.die_used[d]]
    landed = state.landed.tolist()
    values = [int(v) or 1 for v in state.planet_value.tolist()]
    red = state.red_star
    if red >= 0:
        values[red] *= 2
    chain_star, chain_len = state.chain_star, state.chain_len
    moves_left = r.num_moves - state.moves_done
    total = 0
    plan = []
    moons = [m for m in range(g.max_moons) if stars[m] >= 0 and not moved[m]]
    while moves_left > 0 and moons and free:
        best = None
        seen_faces = set()
        for di, (d, f) in enumerate(free):
            if f in seen_faces:
                continue
            seen_faces.add(f)
            for m in moons:
                for k in range(nd):
                    t = (stars[m] + solver.displacement(f, k, r.movement)) % NUM_STARS
                    if r.scoring == "planets":
                        v = values[t]
                    elif r.scoring == "squares":
                        v = 2 * landed[t] + 1
                    else:
                        v = chain_len + 1 if t == chain_star else 1
                    if best is None or v > best[0]:
                        best = (v, m, di, k, t)
        v, m, di, k, t = best
        d = free.pop(di)[0]
        moons.remove(m)
        landed[t] += 1
        if r.scoring == "chains":
            chain_len = chain_len + 1 if t == chain_star else 1
            chain_star = t
        total += v
        plan.append((m, d, k))
        moves_left -= 1
    return total, plan


class _MoonstarAgent:
    def __init__(self, seed: int | None = None, name: str = "moonstar") -> None:
        self.name = name
        self.rng = np.random.default_rng(seed)

    def act(self, view: AgentView) -> int:
        _check(view)
        state: MoonstarState = view.sample_state(self.rng)
        g = state.game
        ph = state.phase
        if ph == "auction":
            a = self._auction(state, view.seat)
        elif ph == "play":
            a = self._play(state)
        elif ph == "bets":
            a = self._bet(state, view.seat)
        elif ph == "favourite":
            a = self._favourite(state)
        elif ph == "menu":
            a = g.a_menu
        else:
            a = self._setup(state, view)
        if not view.action_mask[a]:  # never play an illegal move, whatever happened
            legal = legal_actions(view)
            a = int(legal[self.rng.integers(legal.size)])
        return int(a)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"

    # ---- shared pieces ---------------------------------------------------------------
    @staticmethod
    def _bid_or_pass(state: MoonstarState, value: int) -> int:
        g = state.game
        if value > state.high_bid and value >= MIN_BID:
            return g.bid_action(min(value, MAX_BID))
        return g.a_pass

    def _setup(self, state: MoonstarState, view: AgentView) -> int:
        legal = legal_actions(view)
        return int(legal[self.rng.integers(legal.size)])


class MoonstarHeuristicAgent(_MoonstarAgent):
    """Greedy play and greedy-estimate bidding; see the module docstring."""

    def __init__(self, seed: int | None = None, name: str = "heuristic") -> None:
        super().__init__(seed, name)

    def _estimate(self, state: MoonstarState) -> int:
        if state.rules.favourite_star and state.red_star < 0:
            st = state.clone()
            st.red_star = self._favourite(state)
            return greedy_moves(st)[0]
        return greedy_moves(state)[0]

    def _auction(self, state: MoonstarState, seat: int) -> int:
        g = state.game
        est = self._estimate(state)
        a = self._bid_or_pass(state, est)
        challenge = state.rules.challenges and state.bidder >= 0 and not state.challengers[seat]
        if a == g.a_pass and challenge and state.high_bid > est + 10:
            return g.a_challenge
        return a

    def _play(self, state: MoonstarState) -> int:
        _, plan = greedy_moves(state)
        m, d, k = plan[0]
        face = int(state.dice[d])
        return state.game.move_action(m, _first_dice(state)[face], k)

    def _bet(self, state: MoonstarState, seat: int) -> int:
        g = state.game
        if seat == state.bidder:
            fr = g.config.bet_fractions
            k = max(i for i, x in enumerate(fr) if x <= 0.5)
            return g.bet_action(False, k)
        return g.bet_action(False, 0)

    @staticmethod
    def _favourite(state: MoonstarState) -> int:
        return int(np.argmax(state.planet_value))


class MoonstarOracleAgent(_MoonstarAgent):
    """Exact play and optimum-based bidding; see the module docstring."""

    def __init__(
        self, seed: int | None = None, name: str = "oracle", back_made: bool = False
    ) -> None:
        super().__init__(seed, name)
        self.back_made = back_made
        self._opt_key = None
        self._opt: solver.Solution | None = None
        self._plan: list[tuple[int, int, int]] = []  # (moon id, face, direction)
        self._plan_round: tuple[int, int] = (-1, -1)  # (round, moves made) it continues

    @classmethod
    def from_spec(
        cls, text: str, seed: int | None = None, name: str | None = None
    ) -> MoonstarOracleAgent:
        """The agent of the zoo spec ``oracle:back_made=true`` (``text`` is what follows
        ``oracle:``; ``back_made`` is ``true`` or ``false``). Anything else raises
        :class:`ConfigError` naming the field and the allowed values."""
        key, sep, raw = (x.strip() for x in text.partition("="))
        if key != "back_made" or not sep:
            raise ConfigError(
                f"oracle parameter {quote(text)} must read back_made=true or back_made=false"
            )
        if raw not in ("true", "false"):
            raise ConfigError(f"back_made={quote(raw)} is not allowed; allowed values: true, false")
        return cls(seed=seed, name=name or f"oracle:{text}", back_made=raw == "true")

    def optimum(self, state: MoonstarState) -> solver.Solution:
        """The exact solution of the round from ``state`` (cached per position)."""
        key = (
            state.round_no,
            state.rules_idx,
            state.moves_done,
            state.red_star,
            state.moon_star.tobytes(),
            state.dice.tobytes(),
            state.planet_value.tobytes(),
        )
        if key != self._opt_key:
            self._opt_key = key
            self._opt = solver.solve(state.situation())
        return self._opt

    def best_actions(self, view: AgentView) -> list[int]:
        """Every legal action as good as the one :meth:`act` plays: under planet scoring
        in the play phase, every move after which the round's exact optimum can still be
        reached (the immediate points plus the solver's best for the rest); elsewhere
        ``[act(view)]``. An imitation trainer's targets (``algorithm.name: imitation``)."""
        _check(view)
        state: MoonstarState = view.sample_state(self.rng)
        if state.phase != "play" or state.rules.scoring != "planets":
            return [self.act(view)]
        sit = state.situation()
        moons, dice = state.situation_index()
        g = state.game
        values: dict[int, int] = {}
        for a in legal_actions(view).tolist():
            m, d, k = g.decode_move(a)
            mi, di = moons.index(m), dice.index(d)
            star = (sit.moon_stars[mi] + solver.displacement(sit.dice[di], k, sit.movement)) % (
                NUM_STARS
            )
            rest = dataclasses.replace(
                sit,
                moon_stars=sit.moon_stars[:mi] + sit.moon_stars[mi + 1 :],
                dice=sit.dice[:di] + sit.dice[di + 1 :],
                max_moves=None if sit.max_moves is None else sit.max_moves - 1,
            )
            gain = landing_value(sit.star_values, star, sit.red_star)
            values[a] = gain + solver.solve(rest, with_plan=False).total
        best = max(values.values())
        return [a for a, v in values.items() if v == best]

    def _auction(self, state: MoonstarState, seat: int) -> int:
        g = state.game
        opt = self.optimum(state).total
        n_elig = state.eligible_bidders()
        last_to_speak = seat == state.organizer and state.bidder < 0 and state.passes >= n_elig - 1
        if last_to_speak and opt <= NO_BID_BONUS:
            return g.a_pass  # nobody bid: the organizer's +20 is worth more
        a = self._bid_or_pass(state, opt)
        challenge = state.rules.challenges and state.bidder >= 0 and not state.challengers[seat]
        if a == g.a_pass and challenge and state.high_bid > opt:
            return g.a_challenge
        return a

    def _favourite(self, state: MoonstarState) -> int:
        sol = self.optimum(state)
        if sol.red_star is not None:
            return int(sol.red_star)
        return int(np.argmax(state.planet_value))

    def _bet(self, state: MoonstarState, seat: int) -> int:
        g = state.game
        top = len(g.config.bet_fractions) - 1
        if seat == state.bidder:
            return g.bet_action(False, top)
        opt = self.optimum(state).total
        if state.high_bid > opt:
            return g.bet_action(True, top)
        return g.bet_action(False, top if self.back_made else 0)

    def _play(self, state: MoonstarState) -> int:
        g = state.game
        firsts = _first_dice(state)
        if self._plan and self._plan_round == (state.round_no, state.moves_done):
            m, face, k = self._plan[0]
            if face in firsts and state.moon_star[m] >= 0 and not state.moon_moved[m]:
                self._plan.pop(0)
                self._plan_round = (state.round_no, state.moves_done + 1)
                return g.move_action(m, firsts[face], k)
        moons, dice = state.situation_index()
        sol = solver.solve(state.situation())
        self._plan = [(moons[m], int(state.dice[dice[d]]), k) for m, d, k in sol.plan]
        m, face, k = self._plan.pop(0)
        self._plan_round = (state.round_no, state.moves_done + 1)
        return g.move_action(m, firsts[face], k)

    def _setup(self, state: MoonstarState, view: AgentView) -> int:
        mask = view.action_mask[:NUM_STARS]
        r = state.rules
        if state.phase == "planet":
            k = len(r.planets)
            placed = len(r.planets) - len(state.planets_to_place)
            step = NUM_STARS // k
            for j in range(NUM_STARS):
                s = (placed * step + j) % NUM_STARS
                if mask[s]:
                    return s
        # moons
        if r.scoring != "planets":
            for j in range(NUM_STARS):
                s = (state.moons_placed * 5 + j) % NUM_STARS
                if mask[s]:
                    return s
        nd = solver.num_directions(r.movement)
        values = [int(v) or 1 for v in state.planet_value.tolist()]
        best, best_cost = -1, None
        for s in range(NUM_STARS):
            if not mask[s]:
                continue
            cost = 0
            for f in range(1, 7):
                cost += max(
                    values[(s + solver.displacement(f, k, r.movement)) % NUM_STARS]
                    for k in range(nd)
                )
            if best_cost is None or cost < best_cost:
                best, best_cost = s, cost
        return best
