"""grpo_core.conventions: the registry matches each library's source; overrides are validated."""

import math

import pytest

from grpo_core import CONVENTIONS, get_convention

TABLE = {  # name: (baseline, scale, ddof, eps, clip, singleton), per library source
    "trl": ("mean", "group", 1, 1e-4, None, "refuse"),
    "trl-batch": ("mean", "batch", 1, 1e-4, None, "refuse"),
    "dr-grpo": ("mean", "none", 1, 1e-4, None, "refuse"),
    "verl": ("mean", "group", 1, 1e-6, None, "pass-through"),
    "openrlhf": ("mean", "group", 1, 1e-9, 10.0, "refuse"),
    "rloo": ("leave-one-out", "none", 1, 1e-4, None, "refuse"),
    "nemo-rl": ("leave-one-out", "leave-one-out", 1, 1e-6, None, "zero"),
    "reinforce-pp": ("mean", "whiten", 0, 1e-4, 10.0, "refuse"),
    "zscore": ("mean", "group", 0, 0.0, None, "zero"),
}


def test_registry_is_exactly_the_table():
    assert set(CONVENTIONS) == set(TABLE)
    for name, row in TABLE.items():
        c = CONVENTIONS[name]
        assert (c.baseline, c.scale, c.ddof, c.eps, c.clip, c.singleton) == row
        assert c.name == name and c.description and c.library and c.source and c.code


def test_unknown_convention_lists_the_names():
    names = "trl, trl-batch, dr-grpo, verl, openrlhf, rloo, nemo-rl, reinforce-pp, zscore"
    with pytest.raises(ValueError, match=names):
        get_convention("grpo")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"eps": -1e-4}, "eps must be a finite number >= 0"),
        ({"eps": math.nan}, "eps must be"),
        ({"eps": "1e-4"}, "eps must be"),
        ({"ddof": 2}, "ddof must be 0"),
        ({"ddof": True}, "ddof must be 0"),
        ({"scale": "prompt"}, "scale must be one of 'group', 'batch', 'none'"),
        ({"clip": 0}, "clip must be a positive number"),
        ({"clip": -1}, "clip must be a positive number"),
    ],
)
def test_bad_overrides(kwargs, message):
    with pytest.raises(ValueError, match=message):
        CONVENTIONS["trl"].with_overrides(**kwargs)


def test_overrides_replace_and_inf_removes_clip():
    c = CONVENTIONS["openrlhf"].with_overrides(ddof=0, eps=0.5, scale="batch", clip=math.inf)
    assert (c.ddof, c.eps, c.scale, c.clip) == (0, 0.5, "batch", None)
    assert CONVENTIONS["openrlhf"].clip == 10.0  # the registry is untouched


def test_refuses_singleton_is_the_rule_for_a_group_of_one():
    refusing = {name for name, c in CONVENTIONS.items() if c.refuses_singleton}
    assert refusing == {"trl", "trl-batch", "dr-grpo", "openrlhf", "rloo", "reinforce-pp"}
    assert not get_convention("verl").refuses_singleton
    assert not get_convention("zscore").refuses_singleton
    assert not get_convention("nemo-rl").refuses_singleton  # NeMo-RL: a lone answer gets 0


def test_rloo_and_every_claim_of_exactness_name_float64_and_beta_zero():
    assert "beta = 0" in get_convention("rloo").library
    import grpo_core.conventions as module

    assert "float32" in module.__doc__ and "beta = 0" in module.__doc__
