"""Checkpoints are loaded without unpickling: crafted files are refused and nothing in them
runs; checkpoints written by the trainer load."""

from __future__ import annotations

import base64
import io
import json
import pickle
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import moon_envs
from moon_agents.checkpoint import SIDECAR, load_policy, save_checkpoint
from moon_agents.policy import PolicyAgent
from moon_agents.zoo import make_agent
from moon_envs import ConfigError


class Payload:
    """Unpickling this creates ``marker``: it stands for any code a file could run."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    torch.manual_seed(0)
    vec = DummyVecEnv([lambda: moon_envs.make_single_agent("jupiter_v0")])
    model = MaskablePPO(
        "MlpPolicy", vec, n_steps=64, batch_size=64, policy_kwargs={"net_arch": [16]}
    )
    return save_checkpoint(model, tmp_path_factory.mktemp("ck") / "good.zip")


def _rewrite(src: Path, dst: Path, replace: dict[str, bytes], drop: tuple[str, ...] = ()) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for name in zin.namelist():
            if name not in replace and name not in drop:
                zout.writestr(name, zin.read(name))
        for name, data in replace.items():
            zout.writestr(name, data)
    return dst


def _data_with_payload(src: Path, marker: Path) -> bytes:
    with zipfile.ZipFile(src) as zf:
        data = json.loads(zf.read("data"))
    blob = base64.b64encode(pickle.dumps(Payload(marker))).decode()
    data["policy_class"] = {":type:": "<class 'abc.ABCMeta'>", ":serialized:": blob}
    data["observation_space"] = {":type:": "<class 'Box'>", ":serialized:": blob}
    return json.dumps(data).encode()


def test_the_payload_is_live(tmp_path):
    # the control: unpickling the payload does create the marker
    marker = tmp_path / "ran"
    pickle.loads(pickle.dumps(Payload(marker)))
    assert marker.exists()


def test_a_crafted_sb3_zip_is_refused_and_nothing_runs(saved, tmp_path):
    marker = tmp_path / "ran"
    crafted = _rewrite(
        saved, tmp_path / "crafted.zip", {"data": _data_with_payload(saved, marker)}, (SIDECAR,)
    )
    for load in (
        lambda: PolicyAgent.load(crafted),
        lambda: make_agent(f"ppo:{crafted}", "jupiter", seed=0),
    ):
        with pytest.raises(ConfigError, match=r"without unpickling.*trusted files only"):
            load()
    assert not marker.exists()


def test_serialized_entries_are_never_read(saved, tmp_path):
    # a checkpoint with its JSON description loads from that and the weights alone
    marker = tmp_path / "ran"
    crafted = _rewrite(saved, tmp_path / "c.zip", {"data": _data_with_payload(saved, marker)})
    agent = PolicyAgent.load(crafted)
    assert agent.policy.action_space.n == moon_envs.make("jupiter_v0").game.spec.num_actions
    assert not marker.exists()


def test_weights_holding_objects_are_refused_and_nothing_runs(saved, tmp_path):
    marker = tmp_path / "ran"
    buf = io.BytesIO()
    torch.save({"mlp_extractor.policy_net.0.weight": Payload(marker)}, buf)
    crafted = _rewrite(saved, tmp_path / "w.zip", {"policy.pth": buf.getvalue()})
    with pytest.raises(ConfigError, match="something other than tensors"):
        PolicyAgent.load(crafted)
    assert not marker.exists()
    torch.load(io.BytesIO(buf.getvalue()), weights_only=False)  # the control: it is live
    assert marker.exists()


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda m: m.update(activation="os.system"), "activation="),
        (lambda m: m.update(net_arch=[10**9]), "net_arch="),
        (lambda m: m.update(net_arch=[4096] * 16), "parameters; allowed: at most"),
        (lambda m: m.update(net_arch={"pi": [8]}), "net_arch="),
        (lambda m: m.update(observation_shape=[10**7, 10**7]), "observation_shape="),
        (lambda m: m.update(num_actions=True), "num_actions="),
        (lambda m: m.update(version=99), "version"),
        (lambda m: m.update(extra=1), "exactly the fields"),
        (lambda m: m.update(net_arch=[17]), "do not fit"),
    ],
)
def test_bad_descriptions_are_refused(saved, tmp_path, edit, match):
    with zipfile.ZipFile(saved) as zf:
        meta = json.loads(zf.read(SIDECAR))
    edit(meta)
    bad = _rewrite(saved, tmp_path / "d.zip", {SIDECAR: json.dumps(meta).encode()})
    with pytest.raises(ConfigError, match=match):
        load_policy(bad)


def test_files_that_are_not_checkpoints_are_refused(tmp_path):
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip at all")
    with pytest.raises(ConfigError, match="not a checkpoint zip"):
        PolicyAgent.load(junk)
    with pytest.raises(ConfigError, match="does not exist"):
        PolicyAgent.load(tmp_path / "nowhere.zip")


def test_loading_does_not_move_torchs_generator(saved):
    torch.manual_seed(5)
    expected = torch.rand(3)
    torch.manual_seed(5)
    PolicyAgent.load(saved)
    assert torch.equal(torch.rand(3), expected)


# ---- the trainer's opponent pool ---------------------------------------------------------------


def test_a_crafted_checkpoint_in_the_opponent_pool_is_refused_before_training(saved, tmp_path):
    from moon_agents.training.config import load_config
    from moon_agents.training.train import train

    marker = tmp_path / "ran"
    crafted = _rewrite(
        saved, tmp_path / "crafted.zip", {"data": _data_with_payload(saved, marker)}, (SIDECAR,)
    )
    config = tmp_path / "c.yaml"
    config.write_text(
        "env: {id: jupiter_v0}\n"
        "algorithm: {n_envs: 1, n_steps: 64, batch_size: 64, net_arch: [8]}\n"
        f"opponents: {{pool: ['ppo:{crafted}']}}\n"
        "budget: {total_timesteps: 64}\n"
        "eval: {every_timesteps: 0, games: 1, opponents: [random]}\n"
        f"output: {{dir: '{tmp_path / 'runs'}', tensorboard: false, plot: false, "
        "progress_bar: false}\n"
    )
    with pytest.raises(ConfigError, match=r"without unpickling.*trusted files only"):
        train(load_config(config))
    assert not marker.exists()
    assert not (tmp_path / "runs").exists()  # refused before the run folder was written


# ---- rllib:PATH model directories ---------------------------------------------------------------


def _model_dir(tmp_path: Path, meta: object, raw: bytes | None = None) -> Path:
    d = tmp_path / "model"
    d.mkdir(exist_ok=True)
    (d / "model.json").write_bytes(raw if raw is not None else json.dumps(meta).encode())
    (d / "module_state.pt").write_bytes(b"")
    return d


GOOD_META = {"env_id": "jupiter_v0", "params": {"num_players": 2}, "net_arch": [16]}


@pytest.mark.parametrize(
    ("meta", "raw", "match"),
    [
        ({"params": {}, "net_arch": [8]}, None, r"missing field\(s\) \['env_id'\]"),
        ({**GOOD_META, "extra": 1}, None, "unknown field"),
        (None, b'{"env_id": "jupiter_v0", \xff}', "not UTF-8"),
        (None, b"{not json", "not valid JSON"),
        ([1, 2], None, "must hold a JSON object"),
        ({**GOOD_META, "env_id": "chess_v9"}, None, "env_id='chess_v9' is not allowed"),
        ({**GOOD_META, "params": {"num_players": 9}}, None, "params: num_players=9"),
        ({**GOOD_META, "params": [1]}, None, "params must be a JSON object"),
        ({**GOOD_META, "net_arch": [10**9]}, None, "net_arch="),
        ({**GOOD_META, "net_arch": "big"}, None, "net_arch="),
        ({**GOOD_META, "net_arch": [65536] * 32}, None, "parameters; allowed: at most 50000000"),
        ({**GOOD_META, "activation": "os.system"}, None, "activation="),
    ],
)
def test_bad_rllib_model_descriptions_are_refused(tmp_path, meta, raw, match):
    from moon_agents.training.rllib.agent import RllibAgent

    d = _model_dir(tmp_path, meta, raw)
    with pytest.raises(ConfigError, match=match) as info:
        RllibAgent.load(d)
    assert len(str(info.value)) < 600
    with pytest.raises(ConfigError, match=match):
        make_agent(f"rllib:{d}", "jupiter", seed=0)


def test_a_good_rllib_model_description_passes_the_checks(tmp_path):
    from moon_agents.training.rllib.agent import read_model_meta

    d = _model_dir(tmp_path, {**GOOD_META, "activation": "relu", "trainer": "rllib-ppo"})
    assert read_model_meta(d / "model.json")["net_arch"] == [16]


def test_rllib_weights_holding_objects_are_refused_and_nothing_runs(tmp_path):
    pytest.importorskip("ray.rllib")
    from moon_agents.training.rllib.agent import RllibAgent

    marker = tmp_path / "ran"
    d = _model_dir(tmp_path, GOOD_META)
    torch.save({"pi.net.mlp.0.weight": Payload(marker)}, d / "module_state.pt")
    with pytest.raises(ConfigError, match=r"module_state\.pt: not the weights"):
        RllibAgent.load(d)
    assert not marker.exists()
