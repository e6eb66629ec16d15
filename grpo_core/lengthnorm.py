"""Length normalisation: how per-token losses are averaged into one loss.

Every token t of completion i shares its advantage A_i. The loss is
    L = -sum_i sum_{t <= |o_i|} w_{i,t} A_i ratio_{i,t}        (clipping aside)
so at ratio = 1 gradient descent raises log pi(token) by w_{i,t} A_i: the
token's "push". The loss types differ only in the weights w_{i,t} (G is the
number of completions in the batch, |o_i| the length of completion i):

    grpo      1 / (G |o_i|)           mean over each completion, then over completions
    bnpo      1 / sum_j |o_j|         every token of the batch equally
    dr_grpo   1 / (G L_max)           a constant: L_max = max_completion_length
    dapo      1 / N_global            every token of the global batch equally

Within a completion every token gets the same weight. Under "grpo" a long
completion's tokens each get less: a long wrong answer is penalised less per
token than a short one, the bias toward long wrong answers that Dr. GRPO
(arXiv 2503.20783) and DAPO (arXiv 2503.14476) remove.

Source: TRL GRPOTrainer ``loss_type`` (huggingface/trl trl/trainer/grpo_trainer.py):
"grpo" divides each row's masked sum by its token count then takes the mean over
rows; "bnpo" divides the masked sum by the batch's token count; "dr_grpo" by
rows x max_completion_length; "dapo" by num_items_in_batch / num_processes, the
global batch's tokens per process. G is the number of completions in the
(per-device) batch, not the group size K. Newer TRL versions have further values
(e.g. "cispo", "sapo") that change the per-token loss itself; they are not
covered here. The advantages are given, not computed: the loss type does not
change them.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core import _checks

_TRL = "TRL GRPOTrainer loss_type"


@dataclass(frozen=True)
class LossType:
    """One way of averaging per-token losses."""

    name: str
    weight: str
    """The weight w_{i,t} of each token t of completion i, as a formula."""
    description: str
    """One line for a learner."""
    source: str


LOSS_TYPES: dict[str, LossType] = {
    t.name: t
    for t in (
        LossType(
            name="grpo",
            weight="1 / (G |oᵢ|)",
            description="Average each completion's token losses, then average over the "
            "completions: every completion counts the same, so a long one's tokens weigh less.",
            source=f'{_TRL}="grpo"; DeepSeekMath (arXiv 2402.03300) eq. 3',
        ),
        LossType(
            name="bnpo",
            weight="1 / Σⱼ |oⱼ|",
            description="Sum every token's loss in the batch and divide by the number of "
            "tokens in the batch: every token counts the same.",
            source=f'{_TRL}="bnpo"',
        ),
        LossType(
            name="dr_grpo",
            weight="1 / (G max_completion_length)",
            description="Sum every token's loss and divide by a constant, the number of "
            "completions times the longest allowed completion: every token counts the same.",
            source=f'{_TRL}="dr_grpo"; Dr. GRPO (arXiv 2503.20783)',
        ),
        LossType(
            name="dapo",
            weight="1 / (tokens in the global batch)",
            description="Token-level loss: sum every token's loss and divide by the number "
            "of tokens in the whole global batch (all devices and accumulation steps); "
            "for a single batch it equals bnpo. (DAPO's paper normalises by the tokens of "
            "each group inside its expectation; TRL, like verl's token-mean, uses the batch's.)",
            source=f'{_TRL}="dapo"; DAPO (arXiv 2503.14476) token-level policy gradient loss',
        ),
    )
}


def sequence_token_weight(
    lengths, loss_type: str, *, max_completion_length=None, num_items_in_batch=None
) -> np.ndarray:
    """The weight each token of completion i gets: shape (G,) for lengths (G,).

    lengths: (G,) whole numbers >= 1, the completions' token counts.
    max_completion_length: L_max for "dr_grpo" (>= every length; defaults to
        max(lengths)).
    num_items_in_batch: the tokens in the global batch for "dapo" (>= sum of
        lengths; defaults to it, when this batch is the whole global batch).
    Weights per loss type: see ``LOSS_TYPES`` and the module docstring.
    """
    n = _checks.token_lengths(lengths)
    spec = _loss_type(loss_type)
    if max_completion_length is not None and spec.name != "dr_grpo":
        raise ValueError('max_completion_length applies to loss_type "dr_grpo" only.')
    if num_items_in_batch is not None and spec.name != "dapo":
        raise ValueError('num_items_in_batch applies to loss_type "dapo" only.')
    g = n.size
    total = n.sum()
    if spec.name == "grpo":
        return 1.0 / (g * n)
    if spec.name == "bnpo":
        return np.full(g, 1.0 / total)
    if spec.name == "dr_grpo":
        longest = int(n.max())
        if max_completion_length is None:
            max_completion_length = longest
        limit = _checks.whole(max_completion_length, "max_completion_length", minimum=1)
        if limit < longest:
            raise ValueError(
                f"max_completion_length {limit} is shorter than a completion of {longest} "
                "tokens; it must be at least the longest completion."
            )
        return np.full(g, 1.0 / (g * limit))
    if num_items_in_batch is None:
        num_items_in_batch = int(total)
    tokens = _checks.whole(num_items_in_batch, "num_items_in_batch", minimum=1)
    if tokens < total:
        raise ValueError(
            f"num_items_in_batch {tokens} is less than the {total} tokens of this batch; "
            "the global batch includes this one."
        )
    return np.full(g, 1.0 / tokens)


def token_weights(
    lengths, loss_type: str, *, max_completion_length=None, num_items_in_batch=None
) -> np.ndarray:
    """The weight w_{i,t} of every token: shape (G, T) with T = max(lengths).

    Row i holds completion i's weight (``sequence_token_weight``) in its first
    |o_i| places and 0 in the padding after them.
    """
    n = _checks.token_lengths(lengths)
    w = sequence_token_weight(
        n,
        loss_type,
        max_completion_length=max_completion_length,
        num_items_in_batch=num_items_in_batch,
    )
    mask = np.arange(n.max())[None, :] < n[:, None]
    return np.where(mask, w[:, None], 0.0)


def per_token_push(lengths, advantages, loss_type: str, **options) -> np.ndarray:
    """How hard each token of completion i is pushed: w_i A_i, shape (G,).

    advantages: (G,) one advantage per completion. Positive pushes the
    token's probability up, negative down. ``options``: as for
    ``sequence_token_weight``.
    """
    n = _checks.token_lengths(lengths)
    a = _advantages(advantages, n.size)
    return sequence_token_weight(n, loss_type, **options) * a


def per_sequence_push(lengths, advantages, loss_type: str, **options) -> np.ndarray:
    """The total push on completion i's tokens: |o_i| w_i A_i, shape (G,).

    Under "grpo" it is A_i / G whatever the length (each token's share shrinks
    as 1/|o_i|); under the other loss types it grows with the length.
    """
    n = _checks.token_lengths(lengths)
    return n * per_token_push(n, advantages, loss_type, **options)


def length_bias_table(
    lengths, advantages, *, max_completion_length=None, num_items_in_batch=None
) -> pd.DataFrame:
    """Every loss type on the same completions, for the page's table and chart.

    One row per (loss_type, completion): loss_type, completion (1..G), length,
    advantage, token_weight (w_i), per_token_push (w_i A_i), sequence_push
    (|o_i| w_i A_i). ``max_completion_length`` is used for "dr_grpo",
    ``num_items_in_batch`` for "dapo".
    """
    n = _checks.token_lengths(lengths)
    a = _advantages(advantages, n.size)
    parts = []
    for name in LOSS_TYPES:
        options = {}
        if name == "dr_grpo":
            options["max_completion_length"] = max_completion_length
        if name == "dapo":
            options["num_items_in_batch"] = num_items_in_batch
        w = sequence_token_weight(n, name, **options)
        parts.append(
            pd.DataFrame(
                {
                    "loss_type": name,
                    "completion": np.arange(1, n.size + 1),
                    "length": n,
                    "advantage": a,
                    "token_weight": w,
                    "per_token_push": w * a,
                    "sequence_push": n * w * a,
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def explain_length_bias(lengths, advantages) -> list[str]:
    """Plain-words sentences, with these completions' numbers, on the length bias.

    Compares the longest and the shortest completion under "grpo" and under a
    token-level loss ("bnpo"; "dr_grpo" and "dapo" weight every token the same).
    """
    n = _checks.token_lengths(lengths)
    a = _advantages(advantages, n.size)
    long_i, short_i = int(np.argmax(n)), int(np.argmin(n))
    if n[long_i] == n[short_i]:
        return [
            "Every completion has the same length, so every loss type weights every token "
            "the same: length normalisation makes no difference here."
        ]
    grpo = per_token_push(n, a, "grpo")
    token = per_token_push(n, a, "bnpo")
    sentences = [
        f'Under "grpo" each of the {n[long_i]} tokens of completion {long_i + 1} '
        f"(advantage {a[long_i]:+.3g}) is pushed by {grpo[long_i]:+.3g}, and each of the "
        f"{n[short_i]} tokens of completion {short_i + 1} (advantage {a[short_i]:+.3g}) by "
        f"{grpo[short_i]:+.3g}: dividing by the length spreads a long completion's advantage "
        "thin, so a long wrong answer is penalised less per token than a short one, and "
        "the policy learns that rambling on when wrong is cheap."
    ]
    sentences.append(
        f'Under "bnpo", "dr_grpo" and "dapo" every token gets the same weight, so the push '
        f"per token is just proportional to the advantage (here {token[long_i]:+.3g} and "
        f"{token[short_i]:+.3g} under bnpo): a long wrong answer is pushed down on every "
        "one of its tokens as hard as a short one (Dr. GRPO, arXiv 2503.20783; DAPO, "
        "arXiv 2503.14476)."
    )
    return sentences


# --- validation ----------------------------------------------------------------------


def _loss_type(name) -> LossType:
    try:
        return LOSS_TYPES[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown loss_type {name!r}; choose one of: {', '.join(LOSS_TYPES)}."
        ) from None


def _advantages(advantages, g: int) -> np.ndarray:
    try:
        a = np.asarray(advantages, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("advantages must be numbers, one per completion.") from None
    if a.shape != (g,):
        raise ValueError(f"give one advantage per completion: {g} lengths, {a.size} advantages.")
    if not np.all(np.isfinite(a)):
        raise ValueError("every advantage must be a finite number.")
    return a


def token_strip(lengths, advantages, loss_type: str, *, gap: int = 1, **options) -> pd.DataFrame:
    """Every token of every completion in a row, with its weight and push, for a token strip.

    One row per token: completion (1..G), token (1..|o_i|), position (where the
    token sits in the strip: completions one after another, ``gap`` empty places
    between them, the first token at 1), token_weight (w_i), push (w_i A_i).
    Summing ``push`` over a completion's rows gives ``per_sequence_push``.
    ``options``: as for ``sequence_token_weight``.
    """
    n = _checks.token_lengths(lengths)
    a = _advantages(advantages, n.size)
    if isinstance(gap, bool) or not isinstance(gap, numbers.Integral) or gap < 0:
        raise ValueError(f"gap must be a whole number >= 0, got {gap!r}.")
    w = sequence_token_weight(n, loss_type, **options)
    completion = np.repeat(np.arange(n.size), n)
    starts = np.concatenate([[0], np.cumsum(n[:-1] + gap)])  # first place of each completion
    token = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)  # 0-based within completion
    return pd.DataFrame(
        {
            "completion": completion + 1,
            "token": token + 1,
            "position": starts[completion] + token + 1,
            "token_weight": w[completion],
            "push": (w * a)[completion],
        }
    )


def token_count(x, name: str = "length") -> int:
    """A token count as a person may type it: 8 or 8.0 -> 8.

    Raises ValueError in plain words for anything else (2.5, 0, -3, nan, inf, text).
    """
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise ValueError(f"{name} must be a whole number of tokens, got {x!r}.")
    if not np.isfinite(x) or x != np.floor(x):
        raise ValueError(f"{name} must be a whole number of tokens, got {x:g}.")
    if x < 1:
        raise ValueError(f"{name} must be at least 1 token, got {x:g}.")
    return int(x)


@dataclass(frozen=True)
class LengthComparison:
    """The same completions under every loss type: what ``comparison`` returns."""

    table: pd.DataFrame
    """``length_bias_table``: one row per (loss_type, completion)."""
    strips: dict[str, pd.DataFrame]
    """Loss type -> its ``token_strip``: one row per token of every completion."""
    sentences: tuple[str, ...]
    """``explain_length_bias``: the bias in plain words, with these numbers."""


def comparison(lengths, advantages, *, max_completion_length=None) -> LengthComparison:
    """Every loss type on these completions: table, token strips and sentences.

    lengths, advantages: (G,) one entry per completion. ``max_completion_length``:
    L_max for "dr_grpo" (None: the longest completion). ValueError in plain words.
    """
    limit = {"max_completion_length": max_completion_length}
    return LengthComparison(
        table=length_bias_table(lengths, advantages, **limit),
        strips={
            name: token_strip(lengths, advantages, name, **(limit if name == "dr_grpo" else {}))
            for name in LOSS_TYPES
        },
        sentences=tuple(explain_length_bias(lengths, advantages)),
    )
