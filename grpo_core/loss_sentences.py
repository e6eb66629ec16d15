"""Sentences of the policy-loss lab, read out of numbers ``grpo_core.loss`` computed.

Each function takes ``PolicyLoss`` results (and the toy batch they came from) and says
in words what they show: the on-policy step (``on_policy``), the clip fraction with one
update per batch (``clip_ratio``), Clip-Higher on unlikely tokens (``clip_higher``),
GSPO's sequence ratio on the longest answer (``sequence_ratio``) and the KL estimators
(``kl_estimates``). No math here beyond counting and picking the numbers to quote.
"""

from __future__ import annotations

import numpy as np

from grpo_core.format import fmt, plural, signed
from grpo_core.loss import AGGREGATION, CLIP_LOSS_TYPES, DELTA, HIGH, LOW, PolicyLoss, exact_sum
from grpo_core.loss_lab import ToyBatch

UNLIKELY = 0.2
"""A token sampled with p_old below this counts as unlikely (``clip_higher``)."""


def _pct(x: float) -> str:
    return f"{fmt(100 * x, 3)}%"


def on_policy(batch: ToyBatch, result: PolicyLoss, loss_type: str) -> str:
    """The first update after sampling: r = 1, the loss a weighted mean advantage, the
    gradient not 0. ``result``: policy_loss at logp = old_logp."""
    real = batch.mask > 0
    per_answer = exact_sum(batch.advantages) / batch.advantages.size
    per_token = exact_sum(batch.advantages[:, None] * batch.mask) / batch.mask.sum()
    push = -result.grad[real]
    top, bottom = int(np.argmax(-result.grad.min(axis=1))), int(np.argmin(-result.grad.max(axis=1)))
    why = {
        "grpo": f"the mean over answers of −A, and the advantages average {fmt(per_answer)}",
        "sapo": "−(2/τ)·A averaged per answer, and τ differs with A's sign",
        "luspo": "a length-weighted sum per answer, so long answers count more",
        "cispo": "−A·log p per token: it is not a mean advantage at all",
        "vespo": "−A·log p per token: it is not a mean advantage at all",
    }.get(loss_type, f"−A averaged over tokens, and per token A averages {fmt(per_token)}")
    opening = (
        f"On the first update after sampling, the policy is still the one that sampled: every "
        f"ratio is exactly 1 and nothing is clipped. The loss is {fmt(result.loss)}: "
        f"with {loss_type} ({AGGREGATION[loss_type]}) it is {why}. "
    )
    if not np.any(push):
        return opening + (
            "Here the gradient is 0 too: every advantage is 0 (the rewards are all equal), so "
            "no token is pushed. A group like this teaches the policy nothing; only a KL term "
            "(β > 0) would move it."
        )
    return opening + (
        f"Yet the gradient is not zero: {plural(int(np.count_nonzero(push)), 'token')} "
        f"get a push on log p, from {signed(push.max())} (answer {top + 1}) to "
        f"{signed(push.min())} (answer {bottom + 1}). "
        + (
            "A loss of 0 says the pushes up and down balance, not that nothing moves."
            if abs(result.loss) < 1e-12
            else "The loss is not 0 only because of how it is averaged; the pushes are there "
            "either way."
        )
    )


def clip_ratio(
    now: PolicyLoss,
    first: PolicyLoss,
    step: float,
    eps: tuple[float, float],
    loss_type: str = "dapo",
    level: str = "token",
) -> str:
    """Why clip_ratio is 0 with one update per batch, and what a later update clips.
    ``first``: at step 0; ``now``: at ``step``; eps: (epsilon_low, epsilon_high), the
    latter CISPO's weight cap under ``loss_type="cispo"``; ``level``: the
    importance_sampling_level (at "sequence" TRL counts clipped answers, not tokens)."""
    lo, hi = 1 - eps[0], 1 + eps[1]
    where = {
        "cispo": f"r = 1 is below CISPO's weight cap ε_high = {fmt(eps[1])}",
        "sapo": "sapo has no clip at all (a smooth gate instead)",
        "vespo": "vespo has no clip at all (a smooth weight instead)",
    }.get(loss_type, f"r = 1 lies inside [{fmt(lo)}, {fmt(hi)}]")
    text = (
        f"With num_iterations = 1 every batch is used once, by the policy that sampled it: "
        f"{where}, so the logged clip fraction is "
        f"{_pct(first.clip_fraction.region)} whatever ε. Only a second pass over the same "
        "batch (num_iterations > 1) sees r ≠ 1."
    )
    if step == 0:
        return text + " Move the step slider to take it."
    cf = now.clip_fraction
    return text + (
        f" One step later (step {fmt(step)}): {_pct(cf.region)} of "
        f"{'answers' if level == 'sequence' else 'tokens'} clipped, "
        f"{_pct(cf.low)} low and {_pct(cf.high)} high."
    )


def clip_higher(
    batch: ToyBatch,
    now: PolicyLoss,
    other: PolicyLoss,
    eps_high: tuple[float, float],
    note: str = "",
) -> str:
    """Clip-Higher on unlikely tokens of right answers. ``now`` and ``other``: a clip-family
    loss at token level at two epsilon_high; eps_high: (this one, the other). ``note``: a
    sentence put first, saying how those settings differ from the reader's."""
    up = (batch.mask > 0) & (batch.advantages[:, None] > 0)
    unlikely = up & (np.exp(batch.old_logp) < UNLIKELY)
    likely = up & ~unlikely
    if not unlikely.any():
        return (
            "No token of an answer with A > 0 was unlikely here (p_old < 0.2): pick another group."
        )
    r = now.ratio
    high_now = int(np.count_nonzero((now.clip == HIGH) & unlikely))
    high_other = int(np.count_nonzero((other.clip == HIGH) & unlikely))
    tokens = plural(int(unlikely.sum()), "token")
    likely_top = fmt(r[likely].max()) if likely.any() else "1"
    return note + (
        f"Unlikely tokens move most. In answers with A > 0, the {tokens} "
        f"sampled with p_old < {fmt(UNLIKELY)} reach r up to {fmt(r[unlikely].max())}, the "
        f"{int(likely.sum())} likely ones at most {likely_top}. "
        f"With ε_high = {fmt(eps_high[0])}, {high_now} of the unlikely ones are clipped high "
        f"(their gradient stops); with ε_high = {fmt(eps_high[1])}, {high_other}. "
        + (
            "Here both ceilings stop the same ones: their ratios pass both."
            if high_now == high_other
            else "A higher ceiling lets rare right tokens keep gaining probability."
        )
    )


def sequence_ratio(batch: ToyBatch, token: PolicyLoss, sequence: PolicyLoss) -> str:
    """GSPO on the longest answer: its token ratios against its one sequence ratio."""
    i = int(np.argmax(batch.lengths))
    n = int(batch.lengths[i])
    r = token.ratio[i, :n]
    clipped_token = int(np.count_nonzero(token.clip[i, :n] != 0))
    seq = float(sequence.ratio[i, 0])
    verdict = "all clipped" if sequence.clip[i, 0] != 0 else "none clipped"
    return (
        f"Answer {i + 1} is the longest ({n} tokens, A = {signed(batch.advantages[i])}). Its "
        f"token ratios run from {fmt(r.min())} to {fmt(r.max())}, and at token level "
        f"{clipped_token} of its {n} tokens are clipped. At sequence level (GSPO) all {n} share "
        f"one ratio, exp(mean log r) = {fmt(seq)}: {verdict}. "
        "One very unlikely token no longer decides alone; the whole answer is kept or cut."
    )


def kl_estimates(k: dict[str, np.ndarray], mask, loss_with: float, loss_without: float) -> str:
    """k1, k2, k3 (kl_estimators) side by side, and what beta x k3 adds to the loss."""
    real = mask > 0
    means = {name: float(v[real].mean()) for name, v in k.items()}
    negative = int(np.count_nonzero(k["k1"][real] < 0))
    return (
        f"On the {int(real.sum())} sampled tokens (sampling policy against the reference) "
        f"the three estimates average k1 = "
        f"{fmt(means['k1'])}, k2 = {fmt(means['k2'])}, k3 = {fmt(means['k3'])}. "
        f"k1 is negative on {negative} tokens; k2 and k3 never are. In the loss, β·k3 moves it "
        f"from {fmt(loss_without)} to {fmt(loss_with)}, and its gradient pulls every token "
        "toward the reference, whatever the advantage."
    )


def clipped_counts(result: PolicyLoss, loss_type: str) -> str:
    """A caption line: how many real tokens sit in each clip region."""
    if loss_type not in CLIP_LOSS_TYPES and loss_type != "cispo":
        return f"{loss_type} has no hard clip: every token keeps a gradient."
    real = result.weight > 0
    low = int(np.count_nonzero((result.clip == LOW) & real))
    high = int(np.count_nonzero((result.clip == HIGH) & real))
    delta = int(np.count_nonzero((result.clip == DELTA) & real))
    return f"clipped low {low}, high {high}, by δ {delta} of {int(real.sum())} tokens"


def versus_defaults(default: PolicyLoss, now: PolicyLoss, changed: list[str]) -> str:
    """What the chosen options change against TRL's defaults, on the same tokens.
    ``changed``: the options that differ, as the reader would name them."""
    if not changed:
        return (
            "These are TRL's defaults (dapo, token-level ratios, ε 0.2 on both sides, no δ, "
            "β = 0). Change an option to see what it moves."
        )
    real = now.weight > 0
    flipped = int(np.count_nonzero(np.sign(now.grad[real]) != np.sign(default.grad[real])))
    change = np.abs(now.grad - default.grad)
    b, t = np.unravel_index(int(np.argmax(change)), change.shape)
    return (
        f"Against TRL's defaults, {', '.join(changed)} moves the loss from "
        f"{fmt(default.loss)} to {fmt(now.loss)} and the clipped share from "
        f"{_pct(default.clip_fraction.region)} to {_pct(now.clip_fraction.region)}; "
        f"{plural(flipped, 'token')} change the sign of their push (+, − or 0), and the largest "
        f"change is on answer {b + 1}, token {t + 1}: {signed(-default.grad[b, t])} → "
        f"{signed(-now.grad[b, t])}."
    )
