"""Policy-loss drills: fresh numbers for a loss question, the value to type and its solution.

Contract: ``draw_loss_drill(template, rng)`` draws the numbers of one drill of
``template.quantity`` (a name in ``practice.questions.LOSS_QUANTITIES``) with the given
``numpy.random.Generator`` (same state, same drill) and returns a ``LossDrill``: the
expected value, computed by ``grpo_core.loss.policy_loss`` on the drawn batch (never typed
here), the prompt, a worked solution whose numbers come from the same ``PolicyLoss``, and
the values of classic mistakes, each computed by ``policy_loss`` too where it can be.
``practice.drills.make_drill`` turns it into a ``Drill`` the quiz, review, class rounds,
certification and Anki deck already know.

Every number the learner reads is drawn on a grid of 0.01 or 0.05, so the prompt shows it
exactly. Ratios are drawn from ``RATIOS``, which leaves out the clip bounds 0.8, 1.2 and
1.28 (a ratio on a bound is clipped or not by float rounding). Token probabilities are
``P_OLD`` before the step, low enough that every ratio in ``RATIOS`` stays a probability.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from grpo_core.format import decimal_tex as num  # short names: worked solutions are dense LaTeX
from grpo_core.format import equals_sign as eq
from grpo_core.format import plural
from grpo_core.loss import AGGREGATION, HIGH, LOW, policy_loss
from practice.questions import LOSS_DRILL_TYPES, DrillTemplate

P_OLD = 0.05
"""Every token's probability when sampled, where the drill states only its ratio."""
RATIOS = (0.5, 0.6, 0.7, 0.75, 0.9, 0.95, 1.0, 1.05, 1.1, 1.15, 1.25, 1.3, 1.4, 1.5, 1.8, 2.0)
"""The ratios a drill draws: none on a clip bound (0.8, 1.2, 1.28)."""
EPSILON = 0.2
"""epsilon_low, and epsilon_high unless the drill draws Clip-Higher's ``CLIP_HIGHER``."""
CLIP_HIGHER = 0.28
"""DAPO's epsilon_high."""
MAX_TOKENS = 6
"""The longest answer a drill draws when the prompt gives one ratio for all its tokens."""


@dataclass(frozen=True)
class LossDrill:
    """One drawn loss drill, before ``practice.drills`` grades it."""

    expected: float
    prompt: str
    """The numbers and the question, Markdown with LaTeX (the default wording)."""
    solution: tuple[str, ...]
    """One LaTeX line per step, with the numbers."""
    name: str
    """What the learner types, in plain words for a label: "r", "the clip fraction"."""
    name_tex: str
    """The same in LaTeX: "r", "\\mathcal{L}"."""
    mistakes: tuple[tuple[float, str], ...]
    """(value, feedback) of classic mistakes, unfiltered (``practice.drills`` drops the
    ones within the tolerance of the answer)."""
    params: tuple[tuple[str, str], ...]
    """The wording parameters: a certification family's wordings are formatted with them."""


WORDINGS = {
    "ratio": "A token was sampled with $\\log p_{{old}} = {old}$. One optimizer step later "
    "its log-probability is $\\log p = {new}$. Compute its importance ratio "
    "$r = p / p_{{old}}$.",
    "sequence-ratio": "An answer has {n} tokens whose log-ratios "
    "$\\log p - \\log p_{{old}}$ are $({log_ratios})$. With "
    '`importance_sampling_level="sequence"` (GSPO), what ratio $s$ does every token of this '
    "answer get?",
    "clip-fraction": "{setup} A later update on the same batch gives these token ratios: "
    "{group}. What share of the tokens is clipped (TRL's `clip_ratio/region_mean`)?",
    "loss": "{setup} Every token of an answer has the same ratio: {group}. What is the loss?",
    "token-gradient": "{setup} The batch has {k} answers of {lengths} tokens. Answer {ask} "
    "has advantage $A = {adv}$ and its token {token} has ratio $r = {ratio}$. What is "
    "$\\partial\\,\\mathrm{{loss}} / \\partial \\log p$ of that token?",
    "kl-k3": "A sampled token has $\\log \\pi = {logp}$ under the policy and "
    "$\\log \\pi_{{ref}} = {ref}$ under the reference model. Compute Schulman's k3 estimate "
    "of the KL on this token, the term GRPO adds (times $\\beta$) to the token's loss.",
}
"""quantity -> the default wording of its prompt ({param} from ``LossDrill.params``)."""

_NAMES = {  # quantity -> (plain name, LaTeX name)
    "ratio": ("r", "r"),
    "sequence-ratio": ("s", "s"),
    "clip-fraction": ("the clip fraction", r"\text{clip fraction}"),
    "loss": ("the loss", r"\mathcal{L}"),
    "token-gradient": ("∂loss/∂log p", r"\partial\,\mathcal{L} / \partial \log p"),
    "kl-k3": ("k₃", "k_3"),
}


def draw_loss_drill(template: DrillTemplate, rng: np.random.Generator) -> LossDrill:
    """Fresh numbers for ``template`` (a loss quantity), the value and its solution."""
    expected, params, solution, mistakes = _DRAW[template.quantity](template, rng)
    name, name_tex = _NAMES[template.quantity]
    return LossDrill(
        expected=float(expected),
        prompt=WORDINGS[template.quantity].format(**params),
        solution=tuple(solution),
        name=name,
        name_tex=name_tex,
        mistakes=tuple((float(v), text) for v, text in mistakes),
        params=tuple(params.items()),
    )


# --- drawing ---------------------------------------------------------------------------------


def _term(x: float) -> str:
    """``num(x)`` after an operator: negatives in parentheses."""
    return f"({num(x)})" if x < 0 else num(x)


def _signed(x: float) -> str:
    return ("+" if x > 0 else "") + num(x)


def _advantages(rng, k: int) -> np.ndarray:
    """(k,) advantages on a 0.1 grid, none 0, in [-1.5, 1.5]."""
    return rng.choice([-1, 1], size=k) * rng.integers(2, 16, size=k) / 10


def _ratios(rng, shape) -> np.ndarray:
    return rng.choice(RATIOS, size=shape)


def _batch(ratios: list[np.ndarray]):
    """logp, old_logp, mask (K, T) for answers whose token ratios are ``ratios`` (ragged)."""
    k, t = len(ratios), max(len(r) for r in ratios)
    mask = np.zeros((k, t))
    log_ratio = np.zeros((k, t))
    for i, r in enumerate(ratios):
        mask[i, : len(r)] = 1.0
        log_ratio[i, : len(r)] = np.log(r)
    old = math.log(P_OLD) * mask
    return old + log_ratio * mask, old, mask


def _group_size(template: DrillTemplate, rng) -> int:
    return int(rng.integers(template.min_group_size, template.max_group_size + 1))


def _setup(loss_type: str, eps_high: float, max_len: int | None) -> str:
    clip = (
        f"$\\varepsilon = {num(EPSILON)}$ on both sides"
        if eps_high == EPSILON
        else f"$\\varepsilon_{{low}} = {num(EPSILON)}$, $\\varepsilon_{{high}} = {num(eps_high)}$ "
        "(Clip-Higher)"
    )
    limit = f", `max_completion_length = {max_len}`" if loss_type == "dr_grpo" else ""
    return f'`loss_type="{loss_type}"`{limit}, {clip}, no $\\delta$, no KL.'


def _loss_type(template: DrillTemplate) -> str:
    if template.convention not in LOSS_DRILL_TYPES:
        raise ValueError(
            f"a loss drill's convention is its loss_type, one of {', '.join(LOSS_DRILL_TYPES)}; "
            f"got {template.convention!r}."
        )
    return template.convention


def _ratio(template, rng):
    old = -int(rng.integers(20, 300)) / 100
    shift = int(rng.choice([-1, 1]) * rng.integers(5, 70)) / 100
    if old + shift > -0.05:
        shift = -shift
    new = round(old + shift, 2)
    r = float(policy_loss([[new]], [[old]], [1.0], [[1.0]]).ratio[0, 0])
    log_r = new - old
    solution = [
        rf"\log r = \log p - \log p_{{old}} = {num(new)} - {_term(old)} {eq(log_r)} {num(log_r)}",
        rf"r = e^{{{num(log_r)}}} {eq(r)} {num(r)}",
    ]
    mistakes = [
        (log_r, "That is the log-ratio log p − log p_old; the ratio is its exponential."),
        (1 / r, "That is p_old / p, upside down: the ratio is the new probability over the old."),
        (math.exp(new) - math.exp(old), "That is p − p_old; the ratio divides the two."),
    ]
    return r, {"old": num(old), "new": num(new)}, solution, mistakes


def _sequence_ratio(template, rng):
    n = int(rng.integers(3, 6))
    log_ratios = rng.integers(-40, 81, size=n) / 100
    logp, old, mask = _batch([np.exp(log_ratios)])
    s = float(policy_loss(logp, old, [1.0], mask, importance_sampling_level="sequence").ratio[0, 0])
    mean = float(np.log(s))
    listed = ", ".join(num(x) for x in log_ratios)
    solution = [
        rf"\frac{{1}}{{{n}}}\sum_t \log r_t = \frac{{{' + '.join(_term(x) for x in log_ratios)}}}"
        rf"{{{n}}} {eq(mean)} {num(mean)}",
        rf"s = e^{{{num(mean)}}} {eq(s)} {num(s)}\quad\text{{(the geometric mean of the token "
        r"ratios)}",
    ]
    mistakes = [
        (
            float(np.mean(np.exp(log_ratios))),
            "That is the arithmetic mean of the token ratios; GSPO takes e to the mean "
            "log-ratio, their geometric mean.",
        ),
        (
            float(np.exp(log_ratios.sum())),
            "That is the product of the token ratios, the whole answer's likelihood ratio; "
            "GSPO divides the log-ratio by the length first.",
        ),
        (mean, "That is the mean log-ratio; the ratio is its exponential."),
    ]
    return s, {"n": str(n), "log_ratios": listed}, solution, mistakes


def _clip_fraction(template, rng):
    loss_type = _loss_type(template)
    eps_high = float(rng.choice([EPSILON, CLIP_HIGHER]))
    lo, hi = 1 - EPSILON, 1 + eps_high
    for _ in range(100):
        k = _group_size(template, rng)
        adv = _advantages(rng, k)
        ratios = [_ratios(rng, int(rng.integers(1, 4))) for _ in range(k)]
        logp, old, mask = _batch(ratios)
        res = policy_loss(
            logp,
            old,
            adv,
            mask,
            loss_type=loss_type,
            epsilon_high=eps_high,
            max_completion_length=4,
        )
        if res.clip_fraction.region > 0:
            break
    n_low, n_high = int((res.clip == LOW).sum()), int((res.clip == HIGH).sum())
    total = int(mask.sum())
    outside = sum(int(((r < lo) | (r > hi)).sum()) for r in ratios)
    group = "; ".join(
        f"answer {i + 1} ($A = {_signed(a)}$): $r = {', '.join(num(x) for x in r)}$"
        for i, (a, r) in enumerate(zip(adv, ratios, strict=True))
    )
    frac = res.clip_fraction.region
    solution = [
        rf"\text{{clip range: }} [1 - \varepsilon_{{low}},\ 1 + \varepsilon_{{high}}] = "
        rf"[{num(lo)},\ {num(hi)}],\quad N = {total}\text{{ tokens}}",
        rf"A > 0\text{{: clipped when }} r > {num(hi)}\text{{: {plural(n_high, 'token')}}}",
        rf"A < 0\text{{: clipped when }} r < {num(lo)}\text{{: {plural(n_low, 'token')}}}",
        rf"\text{{clip fraction}} = \frac{{{n_high} + {n_low}}}{{{total}}} {eq(frac)} {num(frac)}",
    ]
    mistakes = [
        (
            outside / total,
            "That counts every ratio outside the range; a token is clipped only when its "
            "advantage pushes it further out: r above the range with A > 0, below it with A < 0.",
        ),
        (n_high / total, "That counts only the tokens clipped high; add the ones clipped low."),
        (n_low / total, "That counts only the tokens clipped low; add the ones clipped high."),
        (
            (n_low + n_high) / k,
            "That divides by the number of answers; the metric is a share of tokens.",
        ),
    ]
    params = {"setup": _setup(loss_type, eps_high, 4), "group": group}
    return frac, params, solution, mistakes


def _answer_losses(rng, template):
    """A group where every token of answer i has ratio r_i: k, lengths, A, r, the batch."""
    k = _group_size(template, rng)
    lengths = rng.integers(1, MAX_TOKENS + 1, size=k)
    adv = _advantages(rng, k)
    r = _ratios(rng, k)
    logp, old, mask = _batch([np.full(n, x) for n, x in zip(lengths, r, strict=True)])
    max_len = int(lengths.max() + rng.integers(0, 4))
    return k, lengths, adv, r, (logp, old, adv, mask), max_len


def _loss(template, rng):
    loss_type = _loss_type(template)
    k, lengths, adv, r, batch, max_len = _answer_losses(rng, template)

    def loss(kind: str, **kw) -> float:
        return policy_loss(*batch, loss_type=kind, max_completion_length=max_len, **kw).loss

    res = policy_loss(*batch, loss_type=loss_type, max_completion_length=max_len)
    ell = res.per_token[:, 0]
    hi_clip = np.clip(r, 1 - EPSILON, 1 + EPSILON)
    solution = [
        rf"\ell_{{{i + 1}}} = -\min({num(r[i])} \cdot {_term(adv[i])},\ {num(hi_clip[i])} \cdot "
        rf"{_term(adv[i])}) {eq(ell[i])} {num(ell[i])}"
        for i in range(k)
    ]
    weighted = " + ".join(f"{lengths[i]} \\cdot {_term(ell[i])}" for i in range(k))
    total = int(lengths.sum())
    if loss_type == "grpo":
        aggregate = rf"\frac{{{' + '.join(_term(x) for x in ell)}}}{{{k}}}"
        words = r"\text{the mean over answers of each answer's mean token loss}"
    elif loss_type == "dr_grpo":
        aggregate = rf"\frac{{{weighted}}}{{{k} \cdot {max_len}}}"
        words = r"\text{the token sum over } K \cdot \texttt{max\_completion\_length}"
    else:
        aggregate = rf"\frac{{{weighted}}}{{{total}}}"
        words = r"\text{the token sum over the batch's token count}"
    solution += [words, rf"\mathcal{{L}} = {aggregate} {eq(res.loss)} {num(res.loss)}"]
    mistakes = [
        (
            loss(other),
            f"That is the {other} aggregation ({AGGREGATION[other]}); {loss_type} takes the "
            f"{AGGREGATION[loss_type]}.",
        )
        for other in ("grpo", "dapo", "dr_grpo")
        if AGGREGATION[other] != AGGREGATION[loss_type]
    ]
    mistakes += [
        (
            loss(loss_type, epsilon_low=1.0, epsilon_high=1e9),
            "That leaves out the clip: the min takes the clipped term where the ratio is out of "
            "range and the advantage pushes it further out.",
        ),
        (-res.loss, "The sign is flipped: the loss is minus the surrogate."),
    ]
    group = "; ".join(
        f"answer {i + 1}: {plural(int(n), 'token')}, $A = {_signed(a)}$, $r = {num(x)}$"
        for i, (n, a, x) in enumerate(zip(lengths, adv, r, strict=True))
    )
    params = {"setup": _setup(loss_type, EPSILON, max_len), "group": group}
    return res.loss, params, solution, mistakes


def _token_gradient(template, rng):
    loss_type = _loss_type(template)
    k, lengths, adv, _, _, max_len = _answer_losses(rng, template)
    i = int(rng.integers(k))
    t = int(rng.integers(lengths[i]))
    ratio = float(rng.choice(RATIOS))
    ratios = [np.ones(n) for n in lengths]
    ratios[i][t] = ratio
    logp, old, mask = _batch(ratios)
    res = policy_loss(logp, old, adv, mask, loss_type=loss_type, max_completion_length=max_len)
    grad, w, a = float(res.grad[i, t]), float(res.weight[i, t]), float(adv[i])
    clipped = res.clip[i, t] != 0
    bound = (
        rf"A > 0\text{{: clipped if }} r > {num(1 + EPSILON)}"
        if a > 0
        else rf"A < 0\text{{: clipped if }} r < {num(1 - EPSILON)}"
    )
    per = {
        "grpo": (f"K \\cdot L_{{{i + 1}}}", f"{k} \\cdot {lengths[i]}"),
        "dr_grpo": ("K \\cdot L_{max}", f"{k} \\cdot {max_len}"),
    }
    symbol, value = per.get(loss_type, ("\\sum_i L_i", str(int(lengths.sum()))))
    solution = [
        rf"r = {num(ratio)},\quad A = {_signed(a)}",
        rf"{bound}\ \Rightarrow\ \text{{{'clipped' if clipped else 'not clipped'}}}",
        rf"w = \frac{{1}}{{{symbol}}} = \frac{{1}}{{{value}}} {eq(w)} {num(w)}",
        (
            r"\frac{\partial \mathcal{L}}{\partial \log p} = 0\quad\text{(the min takes the "
            r"clipped term, which does not depend on } r\text{)}"
            if clipped
            else rf"\frac{{\partial \mathcal{{L}}}}{{\partial \log p}} = -A\,r\,w = "
            rf"\frac{{-{_term(a)} \cdot {num(ratio)}}}{{{value}}} {eq(grad)} {num(grad)}"
        ),
    ]
    flat = "The token is clipped: the min takes the clipped term, flat in r, so no gradient flows."
    mistakes = [
        (-a * ratio * w, flat),
        (-a * ratio, flat if clipped else "That leaves out the token's weight in the loss."),
        (-a * w, "That leaves out r: d r / d log p = r, so the gradient is −A r w."),
        (-grad, "The sign is flipped: the loss is minus the surrogate, so it is −A r w."),
    ]
    for other in ("grpo", "dapo", "dr_grpo"):
        if AGGREGATION[other] != AGGREGATION[loss_type]:
            g = policy_loss(logp, old, adv, mask, loss_type=other, max_completion_length=max_len)
            mistakes.append(
                (
                    float(g.grad[i, t]),
                    f"That weighs the token as {other} does ({AGGREGATION[other]}).",
                )
            )
    params = {
        "setup": _setup(loss_type, EPSILON, max_len),
        "k": str(k),
        "lengths": ", ".join(str(n) for n in lengths),
        "ask": str(i + 1),
        "token": str(t + 1),
        "adv": _signed(a),
        "ratio": num(ratio),
    }
    return grad, params, solution, mistakes


def _kl_k3(template, rng):
    logp = -int(rng.integers(10, 250)) / 100
    d = int(rng.choice([-1, 1]) * rng.integers(5, 80)) / 100
    if logp + d > -0.01:
        d = -d
    ref = round(logp + d, 2)
    d = ref - logp
    res = policy_loss(
        [[logp]], [[logp]], [0.0], [[1.0]], beta=1.0, ref_logp=[[ref]], use_bias_correction_kl=False
    )
    k3 = float(res.kl[0, 0])
    solution = [
        rf"d = \log \pi_{{ref}} - \log \pi = {num(ref)} - {_term(logp)} {eq(d)} {num(d)}",
        rf"k_3 = e^{{d}} - d - 1 = e^{{{num(d)}}} - {_term(d)} - 1 {eq(k3)} {num(k3)}",
    ]
    mistakes = [
        (-d, "That is k1 = log π − log π_ref: unbiased but often negative; GRPO uses k3."),
        (d * d / 2, "That is k2 = d²/2; GRPO's estimator is k3 = e^d − d − 1."),
        (
            math.exp(-d) + d - 1,
            "That takes d the other way round; d = log π_ref − log π for KL(π ‖ π_ref).",
        ),
    ]
    return k3, {"logp": num(logp), "ref": num(ref)}, solution, mistakes


_DRAW = {
    "ratio": _ratio,
    "sequence-ratio": _sequence_ratio,
    "clip-fraction": _clip_fraction,
    "loss": _loss,
    "token-gradient": _token_gradient,
    "kl-k3": _kl_k3,
}
