"""The numbers of the certification attempt's choice items: one generator per family.

Contract: a generator takes a ``numpy.random.Generator`` and returns (wording parameters,
[(option role, option text)], the answer's role). Every number is computed by
``grpo_core`` (``group_advantages`` under a named convention, numpy's float32 spacing),
formatted with ``grpo_core.format.decimal_tex``; the words are in content/variants.toml.
The same generator state gives the same item.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from grpo_core import group_advantages
from grpo_core.format import decimal_tex


def _tex(x: float) -> str:
    return f"${decimal_tex(float(x))}$"


def _rewards(rng, k_lo: int, k_hi: int) -> np.ndarray:
    """One decimal in [0, 1], not all equal."""
    while True:
        r = rng.integers(0, 11, size=int(rng.integers(k_lo, k_hi + 1))) / 10
        if np.ptp(r) > 0:
            return r


def listed(r) -> str:
    return ", ".join(decimal_tex(float(x)) for x in r)


def _answers(indices) -> str:
    names = [str(i + 1) for i in indices]
    if len(names) == 1:
        return f"answer {names[0]} only"
    return "answers " + ", ".join(names[:-1]) + " and " + names[-1]


def _ask_off_mean(rng, r) -> int:
    """A 0-based index whose reward is not the group mean (so its advantage is not 0)."""
    choices = [i for i in range(len(r)) if abs(r[i] - r.mean()) > 1e-9]
    return int(rng.choice(choices))


_CONVENTION_PHRASES = {
    "sample": ("trl", {}, "with the sample std (ddof = 1) plus eps = $10^{-4}$"),
    "population": ("zscore", {}, "as a z-score with the population std (ddof = 0), no eps"),
    "centred": ("dr-grpo", {}, "centred on the group mean, with no division"),
    "rloo": ("rloo", {}, "with the leave-one-out baseline (the mean of the other K − 1 rewards)"),
}


def convention_value(rng):
    r = _rewards(rng, 3, 6)
    i = _ask_off_mean(rng, r)
    named = str(rng.choice(list(_CONVENTION_PHRASES)))
    values = {
        role: group_advantages(r, convention=conv, **kw)[i]
        for role, (conv, kw, _) in _CONVENTION_PHRASES.items()
    }
    phrase = _CONVENTION_PHRASES[named][2]
    params = {"k": len(r), "rewards": listed(r), "ask": i + 1, "mean": _tex(r.mean())}
    params |= {"convention": phrase, "convention_short": phrase}
    return params, [(role, _tex(v)) for role, v in values.items()], named


def who_goes_up(rng):
    r = _rewards(rng, 4, 6)
    mean = r.mean()
    sets = {
        "right": [i for i in range(len(r)) if r[i] > mean + 1e-9],
        "above_half": [i for i in range(len(r)) if r[i] > 0.5],
        "best": [int(np.argmax(r))],
        "below": [i for i in range(len(r)) if r[i] < mean - 1e-9],
    }
    params = {"k": len(r), "rewards": listed(r), "mean": _tex(mean)}
    return (
        params,
        [(role, _answers(s) if s else "none of them") for role, s in sets.items()],
        "right",
    )


def scale_invariance(rng):
    r = _rewards(rng, 3, 5)
    i = _ask_off_mean(rng, r)
    factor = int(rng.integers(2, 11))
    divides = bool(rng.integers(0, 2))
    before = group_advantages(r, convention="zscore" if divides else "dr-grpo")[i]
    values = {
        "unchanged": before,
        "scaled": factor * before,
        "divided": before / factor,
        "shifted": before + factor,
    }
    params = {
        "convention": "with the std division, (R − mean) / std"
        if divides
        else "with only the group mean subtracted (no std division)",
        "ask": i + 1,
        "before": decimal_tex(before),
        "factor": factor,
        "reason": "the std grows by the same factor and cancels it."
        if divides
        else f"without a division the advantage grows {factor}-fold.",
    }
    options = [(role, _tex(v)) for role, v in values.items()]
    return params, options, "unchanged" if divides else "scaled"


def binary_pass(rng):
    k = int(rng.integers(4, 13))
    n = int(rng.integers(1, k))
    passing = bool(rng.integers(0, 2))
    r = np.array([1.0] * n + [0.0] * (k - n))
    i, other = (0, k - 1) if passing else (k - 1, 0)
    z = group_advantages(r, convention="zscore")
    sample = group_advantages(r, convention="zscore", ddof=1)
    values = {"right": z[i], "other": z[other], "sample": sample[i], "centred": r[i] - r.mean()}
    p = n / k
    params = {
        "k": k,
        "n": n,
        "which": "passing" if passing else "failing",
        "p": _tex(p),
        "std": _tex(np.sqrt(p * (1 - p))),
    }
    return params, [(role, _tex(v)) for role, v in values.items()], "right"


def near_tie(rng):
    k = int(rng.integers(3, 6))
    base = int(rng.integers(1, 10)) / 10
    steps = int(rng.choice([1, 2, 3, 5, 10, 20]))
    odd = int(rng.integers(0, k))
    shown = [f"{base:.1f}"] * k
    shown[odd] = f"{base + steps * 1e-7:.7f}"
    r = np.array([float(x) for x in shown])
    i = int(rng.integers(0, k))
    values = {
        "right": group_advantages(r, convention="trl")[i],
        "full": group_advantages(r, convention="trl", eps=0.0)[i],
        "zero": 0.0,
        "centred": r[i] - r.mean(),
    }
    params = {
        "rewards": ", ".join(shown),
        "delta": _tex(steps * 1e-7),
        "ask": i + 1,
        "std": _tex(r.std(ddof=1)),
        "full": _tex(values["full"]),
    }
    return params, [(role, _tex(v)) for role, v in values.items()], "right"


def dapo_keep(rng):
    while True:
        g = int(rng.integers(4, 6))
        groups = rng.integers(0, 2, size=(g, 4)).astype(float)
        spread = groups.max(1) > groups.min(1)
        ones, zeros = groups.min(1) == 1, groups.max(1) == 0
        if spread.any() and ones.any() and zeros.any():
            break
    names = "ABCDE"

    def letters(mask) -> str:
        chosen = [names[j] for j in range(g) if mask[j]]
        return (
            chosen[0] + " only"
            if len(chosen) == 1
            else ", ".join(chosen[:-1]) + " and " + chosen[-1]
        )

    sets = {"right": spread, "all_pass": ones, "any_pass": spread | ones, "all": np.ones(g, bool)}
    params = {
        "g": g,
        "groups": "; ".join(f"{names[j]}: ({listed(groups[j])})" for j in range(g)),
        "kept": letters(spread),
    }
    return params, [(role, letters(m)) for role, m in sets.items()], "right"


def batch_scale(rng):
    first = _rewards(rng, 3, 3)
    second = rng.integers(0, 101, size=3) / 10
    while np.ptp(second) == 0:
        second = rng.integers(0, 101, size=3) / 10
    r = np.concatenate([first, second])
    i = _ask_off_mean(rng, first)

    def adv(convention, **kw):
        return group_advantages(r, group_size=3, convention=convention, eps=0.0, **kw)[i]

    values = {
        "right": adv("trl-batch"),
        "group": adv("trl"),
        "centred": adv("dr-grpo"),
        "population": adv("trl-batch", ddof=0),
    }
    params = {
        "first": listed(first),
        "second": listed(second),
        "n": len(r),
        "asked": decimal_tex(first[i]),
        "std": _tex(r.std(ddof=1)),
        "centred": _tex(values["centred"]),
        "answer": _tex(values["right"]),
    }
    return params, [(role, _tex(v)) for role, v in values.items()], "right"


def float32_spacing(rng):
    base = int(rng.integers(1, 10)) * 10 ** int(rng.integers(4, 9))
    spacing = float(np.spacing(np.float32(base)))
    values = {
        "right": spacing,
        "double": 2 * spacing,
        "half": spacing / 2,
        "float64": float(np.spacing(np.float64(base))),
    }
    params = {"base": f"{base:,}", "spacing": _tex(spacing)}
    return params, [(role, _tex(v)) for role, v in values.items()], "right"


def rloo_value(rng):
    r = _rewards(rng, 3, 6)
    i = _ask_off_mean(rng, r)
    k = len(r)
    centred = group_advantages(r, convention="dr-grpo")[i]
    values = {
        "right": group_advantages(r, convention="rloo")[i],
        "centred": centred,
        "shrunk": centred * (k - 1) / k,
        "zscore": group_advantages(r, convention="zscore")[i],
    }
    params = {
        "rewards": listed(r),
        "ask": i + 1,
        "baseline": _tex((r.sum() - r[i]) / (k - 1)),
        "centred": _tex(centred),
        "answer": _tex(values["right"]),
    }
    return params, [(role, _tex(v)) for role, v in values.items()], "right"


GENERATORS: dict[str, Callable] = {
    f.__name__: f
    for f in (
        convention_value,
        who_goes_up,
        scale_invariance,
        binary_pass,
        near_tie,
        dapo_keep,
        batch_scale,
        float32_spacing,
        rloo_value,
    )
}
"""generator name -> rng -> (wording parameters, [(option role, option text)], answer role)."""
