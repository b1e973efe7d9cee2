"""The card data file: the default loads, bad files are named, a user file is played."""

from __future__ import annotations

import copy
import json

import pytest

import moon_envs
from moon_envs import ConfigError
from moon_envs.moonwakers.cards import DEFAULT_PATH, load_cards, parse_cards


def _data():
    return json.loads(DEFAULT_PATH.read_text())


def test_default_cards_match_the_house_lists():
    cards = load_cards()
    assert cards.num_combos == 17 and cards.num_terrain == 50
    assert sorted(cards.combo_points.tolist())[-1] == 10
    kinds = [cards.kind_name(c) for c in range(50)]
    counts = {k: kinds.count(k) for k in set(kinds)}
    assert counts == {
        "elements": 24,
        "accident": 8,
        "infrared_storm": 2,
        "ionic_storm": 2,
        "labo": 2,
        "cryogen": 2,
        "defective_shelter": 2,
        "scan": 2,
        "shelter": 4,
        "shield": 2,
    }
    storms = {cards.terrain_biome[c] for c in range(50) if kinds[c] == "infrared_storm"}
    assert storms == {"Volcano", "Stone Columns"}


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["combinations"][3].update(points=0), r"combinations\[3\] \('CO2'\).*points"),
        (lambda d: d["combinations"][0]["cost"].update(X=1), r"combinations\[0\].*cost.*'X'"),
        (lambda d: d["terrain"][7].update(element="Q"), r"terrain\[7\].*element"),
        (
            lambda d: d["terrain"][2]["explored"].update(kind="volcano"),
            r"terrain\[2\].*explored.kind",
        ),
        (lambda d: d["terrain"][2]["explored"].update(elements={"H": 4}), r"terrain\[2\].*atoms"),
        (lambda d: d["terrain"][0].pop("biome"), r"terrain\[0\].*'biome' is missing"),
        (lambda d: d["characters"][5].update(ability="fly"), r"characters\[5\].*ability"),
        (lambda d: d["characters"].pop(), r"characters.*exactly 6"),
        (lambda d: d.update(extra=1), r"'extra' is unknown"),
    ],
)
def test_bad_card_data_names_the_card_and_the_field(edit, message):
    data = copy.deepcopy(_data())
    edit(data)
    with pytest.raises(ConfigError, match=message):
        parse_cards(data)


def test_a_user_card_file_is_played_and_a_bad_one_stops_make(tmp_path):
    data = _data()
    data["combinations"] = data["combinations"][:5]
    good = tmp_path / "cards.json"
    good.write_text(json.dumps(data))
    env = moon_envs.make("moonwakers_v1", cards=str(good))
    env.reset(seed=0)
    assert env.game.cards.num_combos == 5
    data["terrain"][4]["element"] = "Z"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ConfigError, match=r"terrain\[4\]"):
        moon_envs.make("moonwakers_v1", cards=str(bad))
    with pytest.raises(ConfigError, match="no such card file"):
        moon_envs.make("moonwakers_v1", cards=str(tmp_path / "missing.json"))
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(ConfigError, match="not valid JSON"):
        moon_envs.make("moonwakers_v1", cards=str(tmp_path / "broken.json"))


def test_the_action_space_follows_the_number_of_terrain_cards(tmp_path):
    data = _data()
    data["terrain"] = data["terrain"][:40]
    path = tmp_path / "forty.json"
    path.write_text(json.dumps(data))
    env = moon_envs.make("moonwakers_v1", cards=str(path))
    assert env.game.spec.num_actions == 48 + 7 * 40
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][-1]))
    assert all(env.terminations.values())


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(elements=5), r"'elements' must be exactly"),
        (lambda d: d.update(elements=None), r"'elements' must be exactly"),
        (lambda d: d.update(schema="moonwakers-cards/9"), r"'schema' is 'moonwakers-cards/9'"),
        (lambda d: d.update(schema=[1] * 10_000), r"'schema' is \[1, 1,"),
        (lambda d: d["terrain"][0].update(element=["H"] * 10_000), r"terrain\[0\].*element"),
        (
            lambda d: d["combinations"][0].update(name="x" * 10_000),
            r"combinations\[0\]: field 'name'",
        ),
        (lambda d: d["characters"][0].update(ability={"a": 1}), r"characters\[0\].*ability"),
        (lambda d: d["terrain"][1].update(explored=[]), r"terrain\[1\].*explored.kind"),
    ],
)
def test_bad_values_of_any_type_are_named_briefly(edit, message):
    data = copy.deepcopy(_data())
    edit(data)
    with pytest.raises(ConfigError, match=message) as err:
        parse_cards(data)
    assert len(str(err.value)) < 300


def test_bad_card_files_of_every_kind_are_short_config_errors(tmp_path):
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes('{"elements": "é"}'.encode("latin-1"))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    big = tmp_path / "big.json"
    big.write_text(" " * (2 << 20))
    digits = tmp_path / "digits.json"
    digits.write_text('{"schema": ' + "9" * 5000 + "}")
    cases = [
        (str(tmp_path), "is a folder; expected a card file"),
        (str(latin1), "not UTF-8"),
        (str(deep), "nested too deeply"),
        (str(big), "larger than"),
        (str(digits), "not valid JSON"),
        ("x" * 100_000, "cannot be read|no such card file"),
        ("bad\0name.json", "cannot be read|no such card file"),
    ]
    for path, message in cases:
        with pytest.raises(ConfigError, match=message) as err:
            moon_envs.make("moonwakers_v1", cards=path)
        assert len(str(err.value)) < 300, path[:40]
    with pytest.raises(ConfigError, match="cards must be a path") as err:
        moon_envs.make("moonwakers_v1", cards=[str(tmp_path)] * 50_000)
    assert len(str(err.value)) < 300
