"""Star Master's rules engine: :class:`StarMasterGame` and :class:`StarMasterState`.

A turn, as ``docs/rules.md`` (section "Star Master") reads the published rules: the dice
are rolled (one chance node over white face x black face). White colour ``c`` with a blank
black die: the roller flips one slot (or passes if they own ``c``, unless the competition
rule applies); found: they gain ``c`` and swap that cube with another slot; missed: the cube
goes back (and, under the competition rule, an owned ``c`` is lost). White star: the roller
names a colour they lack, then flips. White colour with a black star: a race; every seat
from the roller on chooses, sealed, to grab a slot or abstain; a chance node draws the
winner among the grabbers, who flips the grabbed slot: ``c`` gains ``c`` (unless owned)
and swaps; a miss loses the pawn of the flipped colour, if owned. The first player holding
6 colours wins at once.
"""

from __future__ import annotations

import numpy as np

from moon_envs.core.game import CHANCE, TERMINAL, Game, GameSpec, State
from moon_envs.star_master import memory as decay
from moon_envs.star_master import observation as obs
from moon_envs.star_master.config import (
    DECAY_SEEDS,
    FLIP0,
    GOAL,
    NAME0,
    NUM_ACTIONS,
    NUM_COLOURS,
    NUM_SLOTS,
    PASS,
    STAR,
    SWAP0,
    StarMasterConfig,
)
from moon_envs.star_master.validate import validate_state

# phases
SETUP, SEED, ROLL, NAME, FLIP, SWAP, RACE, DRAW, END = range(9)
PHASE_NAMES = ("setup", "seed", "roll", "name", "flip", "swap", "race", "draw", "end")
NOT_CHOSEN, ABSTAIN = -2, -1


class StarMasterGame(Game):
    """Star Master with the parameters of :class:`StarMasterConfig`."""

    config_class = StarMasterConfig

    def _make_spec(self) -> GameSpec:
        c = self.config
        n = c.num_players
        # chance tables, built once
        probs = np.zeros(2 * (NUM_COLOURS + 1))
        for w in c.white_faces:
            for b in c.black_faces:
                probs[2 * w + (0 if c.children else b)] += 1.0
        probs /= probs.sum()
        self.dice_outcomes = [(o, float(p)) for o, p in enumerate(probs) if p > 0]
        self.seed_outcomes = [(o, 1.0 / DECAY_SEEDS) for o in range(DECAY_SEEDS)]
        self.layout = obs.ObservationLayout(n)
        self.masks = _Masks()
        self.turn_cap = c.turn_cap
        # read on the hot path of every step
        self.seats = n
        self.must_search = c.must_search
        self.remembers = c.memory != "none"
        self.decays = c.memory == "decay"
        per_turn = max(n + 1, 3)
        return GameSpec(
            name="star_master",
            num_players=n,
            num_actions=NUM_ACTIONS,
            observation_shape=(self.layout.size,),
            max_game_length=c.turn_cap * per_turn,
            has_chance=True,
            hidden_information=True,
            max_chance_outcomes=DECAY_SEEDS if c.memory == "decay" else 2 * (NUM_COLOURS + 1),
            state_shape=(self.layout.global_size,),
        )


class _Masks:
    """Precomputed legal-action masks."""

    def __init__(self) -> None:
        self.flip = _mask(range(FLIP0, FLIP0 + NUM_SLOTS))
        self.flip_or_pass = _mask([*range(FLIP0, FLIP0 + NUM_SLOTS), PASS])
        self.swap = [
            _mask([SWAP0 + t for t in range(NUM_SLOTS) if t != s]) for s in range(NUM_SLOTS)
        ]


def _mask(actions) -> np.ndarray:
    m = np.zeros(NUM_ACTIONS, dtype=np.int8)
    m[list(actions)] = 1
    return m


class StarMasterState(State):
    """One Star Master position (every field is part of snapshots; see ``validate``).

    Slots hold colours: ``layout[s]`` is the colour of the cube on slot ``s`` (-1 while
    set-up is placing it). Per seat ``p``: ``pawns[p, c]`` (0 or 1), ``memory[p, s]`` (the
    remembered colour, -1 unknown; always -1 with ``memory="none"``), ``win_map[p, s]``
    (colour shown at ``s`` by a public event since ``p``'s last decision, -1 none) and
    ``win_perm[p, s]`` (the slot where the cube now on ``s`` stood at ``p``'s last decision)
    and ``in_window[p]`` (1 where the last flip, resp. the last race's reveal, happened
    since ``p``'s last decision). ``last_seat``, ``last_action`` and ``last_phase`` record
    the last decision (for the pictures and narration; a race choice stays sealed there
    too until every seat has chosen).
    """

    game: StarMasterGame

    def __init__(self, game: StarMasterGame) -> None:
        super().__init__(game)
        n = game.num_players
        self.phase = SETUP
        self.layout = np.full(NUM_SLOTS, -1, dtype=np.int8)
        self.setup_index = 0
        self.seed = -1
        self.turn = 0  # turns started
        self.roller = 0
        self.mover = 0  # seat acting in name / flip / swap
        self.white = -1
        self.black_star = 0
        self.target = -1  # colour sought by the flip
        self.found_slot = -1  # slot of the found cube, to swap
        self.race_choice = np.full(n, NOT_CHOSEN, dtype=np.int8)
        self.race_next = 0  # race choices made so far
        self.pawns = np.zeros((n, NUM_COLOURS), dtype=np.int8)
        # colours held per seat: the game score, float64 as the core reads it every action
        self.held = np.zeros(n, dtype=np.float64)
        # per seat: row 0 window map, row 1 window permutation, row 2 memory (int64: the
        # observation adds them to int64 offsets, the hot path of every step)
        self.views = np.full((n, 3, NUM_SLOTS), -1, dtype=np.int64)
        self.views[:, 1] = obs.IDENTITY
        self.winners_list: list[int] = []
        self.last_flip = np.full(4, -1, dtype=np.int8)  # seat, slot, colour, found
        self.last_race = np.full(n, NOT_CHOSEN, dtype=np.int8)  # revealed choices
        # per seat: whether the last flip / the last race's reveal happened since its last
        # decision (so lies in its window); a seat's info shows only those
        self.in_window = np.zeros((n, 2), dtype=np.int8)
        # the last decision: seat, action and the phase it was taken in (-1: none yet)
        self.last_seat, self.last_action, self.last_phase = -1, -1, -1

    @property
    def win_map(self) -> np.ndarray:
        """``(n, 9)`` view: colour shown at each slot since each seat's last decision."""
        return self.views[:, 0]

    @property
    def win_perm(self) -> np.ndarray:
        """``(n, 9)`` view: where the cube now on each slot stood at the seat's last decision."""
        return self.views[:, 1]

    @property
    def memory(self) -> np.ndarray:
        """``(n, 9)`` view: remembered colour per slot (-1 unknown)."""
        return self.views[:, 2]

    def _set_pawn(self, seat: int, colour: int, value: int) -> None:
        if self.pawns[seat, colour] != value:
            self.pawns[seat, colour] = value
            self.held[seat] += 1 if value else -1

    # ---- whose move ---------------------------------------------------------------------
    def _current_player(self) -> int:
        ph = self.phase
        if NAME <= ph <= SWAP:  # name, flip, swap
            return self.mover
        if ph == RACE:
            return (self.roller + self.race_next) % self.game.seats
        if ph == END:
            return TERMINAL
        return CHANCE

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        ph = self.phase
        if ph == ROLL:
            return self.game.dice_outcomes
        if ph == SETUP:
            left = sorted(set(range(NUM_COLOURS)) - set(self.layout[: self.setup_index].tolist()))
            return [(c, 1.0 / len(left)) for c in left]
        if ph == DRAW:
            grabbers = self._grabbers()
            return [(s, 1.0 / len(grabbers)) for s in grabbers]
        return self.game.seed_outcomes

    def _grabbers(self) -> list[int]:
        n = self.game.seats
        order = [(self.roller + k) % n for k in range(n)]
        return [s for s in order if self.race_choice[s] >= 0]

    # ---- legality -------------------------------------------------------------------------
    def _legal_mask(self) -> np.ndarray:
        ph = self.phase
        masks = self.game.masks
        if ph == FLIP:
            return (masks.flip_or_pass if self._may_pass() else masks.flip).copy()
        if ph == SWAP:
            return masks.swap[self.found_slot].copy()
        if ph == RACE:
            return masks.flip_or_pass.copy()
        m = np.zeros(NUM_ACTIONS, dtype=np.int8)
        m[NAME0 : NAME0 + NUM_COLOURS] = 1 - self.pawns[self.mover]
        return m

    def _may_pass(self) -> bool:
        return (
            self.white != STAR
            and not self.game.must_search
            and bool(self.pawns[self.mover, self.target])
        )

    def _is_legal(self, a: int) -> bool:
        ph = self.phase
        if ph == FLIP:
            return 0 <= a < NUM_SLOTS or (a == PASS and self._may_pass())
        if ph == RACE:
            return 0 <= a < NUM_SLOTS or a == PASS
        if ph == SWAP:
            return SWAP0 <= a < SWAP0 + NUM_SLOTS and a - SWAP0 != self.found_slot
        return NAME0 <= a < NAME0 + NUM_COLOURS and not self.pawns[self.mover, a - NAME0]

    # ---- transitions ----------------------------------------------------------------------
    def _apply(self, a: int) -> None:
        ph = self.phase
        if ph == ROLL:
            self._roll(a)
        elif ph == FLIP:
            self._decide(self.mover, a)
            if a == PASS:
                self._end_turn()
            else:
                self._flip(a)
        elif ph == RACE:
            self._race_choice(a)
        elif ph == SWAP:
            self._decide(self.mover, a)
            self._swap(self.found_slot, a - SWAP0)
            self._end_turn()
        elif ph == NAME:
            self._decide(self.mover, a)
            self.target = a - NAME0
            self.phase = FLIP
        elif ph == DRAW:
            self._race_flip(a)
        elif ph == SETUP:
            self._place(a)
        else:  # SEED
            self.seed = a
            self._start_turn()

    def _place(self, colour: int) -> None:
        self.layout[self.setup_index] = colour
        self.setup_index += 1
        if self.setup_index < NUM_SLOTS:
            return
        self.win_map[:] = self.layout  # the cubes are shown face up once
        if self.game.config.memory != "none":
            self.memory[:] = self.layout
        if self.game.config.memory == "decay":
            self.phase = SEED
        else:
            self._start_turn()

    def _start_turn(self) -> None:
        if self.turn >= self.game.turn_cap:
            self._end_at_cap()
            return
        self.phase = ROLL

    def _roll(self, outcome: int) -> None:
        self.turn += 1
        if self.game.decays:
            cfg = self.game.config
            forget = decay.forget_mask(self.seed, self.turn, self.game.seats, cfg.forget_prob)
            self.memory[forget] = -1
        self.white, self.black_star = divmod(outcome, 2)
        self.mover = self.roller
        if self.white == STAR:
            self.phase = NAME
        elif self.black_star:
            self.phase = RACE
            self.race_next = 0
        else:
            self.target = self.white
            self.phase = FLIP

    def _decide(self, seat: int, action: int) -> None:
        """``seat`` takes ``action``, a decision: its window of recent events starts afresh."""
        self.last_seat, self.last_action, self.last_phase = seat, action, self.phase
        self.views[seat, :2] = obs.FRESH_WINDOW
        self.in_window[seat] = 0

    def _reveal(self, seat: int, slot: int, found: bool) -> int:
        colour = int(self.layout[slot])
        if self.game.remembers:
            self.views[:, 0::2, slot] = colour
        else:
            self.views[:, 0, slot] = colour
        flip = self.last_flip
        flip[0], flip[1], flip[2], flip[3] = seat, slot, colour, found
        self.in_window[:, 0] = 1
        return colour

    def _flip(self, slot: int) -> None:
        seat, target = self.mover, self.target
        found = int(self.layout[slot]) == target
        self._reveal(seat, slot, found)
        if found:
            self._set_pawn(seat, target, 1)
            if self._check_goal(seat):
                return
            if self.game.config.children:
                self._end_turn()
            else:
                self.found_slot = slot
                self.phase = SWAP
            return
        if self.game.must_search:
            self._set_pawn(seat, target, 0)  # competition: a miss loses an owned colour
        self._end_turn()

    def _swap(self, s: int, t: int) -> None:
        lay, views = self.layout, self.views
        lay[s], lay[t] = lay[t], lay[s]
        keep = views[:, :, s].copy()
        views[:, :, s] = views[:, :, t]
        views[:, :, t] = keep

    def _race_choice(self, a: int) -> None:
        seat = self._current_player()
        self._decide(seat, a)
        self.race_choice[seat] = ABSTAIN if a == PASS else a
        self.race_next += 1
        if self.race_next < self.game.seats:
            return
        grabbers = self._grabbers()
        self.last_race[:] = self.race_choice
        self.in_window[:, 1] = 1
        if not grabbers:
            self.race_choice[:] = NOT_CHOSEN
            self._end_turn()
        elif len(grabbers) == 1 or self.game.config.race_winner == "seat_order":
            self._race_flip(grabbers[0])
        else:
            self.phase = DRAW

    def _race_flip(self, winner: int) -> None:
        slot = int(self.race_choice[winner])
        self.race_choice[:] = NOT_CHOSEN
        self.mover = winner
        found = int(self.layout[slot]) == self.white
        colour = self._reveal(winner, slot, found)
        if found:
            self._set_pawn(winner, colour, 1)
            if self._check_goal(winner):
                return
            self.found_slot = slot
            self.phase = SWAP
        else:
            self._set_pawn(winner, colour, 0)  # a wrong grab loses that colour, if owned
            self._end_turn()

    def _check_goal(self, seat: int) -> bool:
        if self.held[seat] >= GOAL:
            self.winners_list = [seat]
            self.phase = END
            return True
        return False

    def _end_turn(self) -> None:
        self.roller = (self.roller + 1) % self.game.seats
        self.white, self.black_star, self.target, self.found_slot = -1, 0, -1, -1
        self._start_turn()

    def _end_at_cap(self) -> None:
        counts = self.pawns.sum(axis=1)
        best = int(counts.max())
        cfg = self.game.config
        # alone at the table (solitaire or not) only the goal wins: nobody to out-collect
        if cfg.num_players == 1 or cfg.turn_limit == "nobody" or best == 0:
            self.winners_list = []
        else:
            self.winners_list = np.flatnonzero(counts == best).tolist()
        self.phase = END

    # ---- results --------------------------------------------------------------------------
    def _scores(self) -> np.ndarray:
        return self.held

    def _winners(self) -> list[int]:
        return list(self.winners_list)

    def returns(self, mode: str = "win") -> np.ndarray:
        """As :meth:`State.returns`; alone at the table (solitaire or not), a win is +1 and
        a loss -1 at the end."""
        if self.game.spec.num_players == 1 and mode == "win":
            if not self.is_terminal():
                return np.zeros(1)
            return np.array([1.0 if self.winners_list else -1.0])
        return super().returns(mode)

    # ---- views ----------------------------------------------------------------------------
    def _observation(self, player: int) -> np.ndarray:
        return obs.encode(self, player)

    def _global_state(self) -> np.ndarray:
        return obs.encode_global(self)

    def info(self) -> dict:
        """The spectator's public facts: turn, roller, dice, the last flip and the last
        race's revealed choices (only once every seat has chosen). A seat's info in the env
        is :meth:`info_for`, which shows those two events only while they lie in the seat's
        window."""
        return self._info(self.last_flip[0] >= 0, self.last_race[0] != NOT_CHOSEN)

    def info_for(self, player: int) -> dict:
        """Seat ``player``'s info: as :meth:`info`, but ``last_flip`` and ``last_race`` are
        ``None`` once ``player`` has decided since they happened, exactly as its window of
        recent events forgets them (in every ``memory`` mode)."""
        window = self.in_window[player]
        return self._info(window[0], window[1])

    def _info(self, flip: object, race: object) -> dict:
        last_flip = None
        if flip:  # in a window only once a flip happened
            seat, slot, colour, found = self.last_flip.tolist()
            last_flip = {"seat": seat, "slot": slot, "colour": colour, "found": bool(found)}
        return {
            "turn": self.turn,
            "roller": self.roller,
            "white": self.white,
            "black_star": self.black_star,
            "last_flip": last_flip,
            "last_race": self.last_race.tolist() if race else None,
        }

    def action_to_string(self, action: int) -> str:
        from moon_envs.star_master.text import action_name

        return action_name(self, int(action))

    def action_to_public_string(self, action: int, observer: int) -> str:
        """A race choice is sealed: other seats only learn that a choice was made."""
        seat = self._current_player()
        if self.phase == RACE and observer != seat:
            return f"player_{seat} makes a sealed race choice"
        return self.action_to_string(action)

    def to_string(self, player: int | None = None) -> str:
        from moon_envs.star_master.text import text_view

        if player is not None and not 0 <= player < self.game.spec.num_players:
            raise ValueError(f"player must be in 0..{self.game.spec.num_players - 1}, got {player}")
        return text_view(self, player)

    def __str__(self) -> str:
        return self.to_string(None)

    # ---- determinisation and snapshots ----------------------------------------------------
    def resample(self, player: int, rng: np.random.Generator) -> StarMasterState:
        """A position consistent with everything ``player`` is shown (observation, info,
        text view): the colours of the slots it neither remembers nor saw since its last
        decision are shuffled among themselves (other seats' memories and windows follow
        the new layout), other seats' sealed race choices are redrawn, and the forgetting
        seed is redrawn. With ``memory="perfect"`` it equals a clone, except that during
        a race the other seats' still-sealed choices are redrawn (see
        :func:`~moon_envs.star_master.determinise.resample_state`)."""
        from moon_envs.star_master.determinise import resample_state

        return resample_state(self, player, rng)

    def _validate(self) -> None:
        validate_state(self)


StarMasterGame.state_class = StarMasterState
