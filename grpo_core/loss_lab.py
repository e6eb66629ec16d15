"""A toy batch for the policy-loss lab: one group's answers as a few tokens each, their
log-probabilities when sampled, after "one optimizer step", and under a reference model.

The step is a logit bump: the update raises the logit of each sampled token by
``step x A`` (its answer's advantage), the rest of the vocabulary unchanged. For a token
of probability p that gives, exactly under a softmax,

    log p_new = log p + z - log(1 - p + p e^z),    z = step x A

so r = p_new / p is e^z / (1 - p + p e^z): near e^z for an unlikely token, near 1 for a
likely one (a policy-gradient step moves log p by about z (1 - p)). step = 0 is the first,
on-policy update: r = 1 everywhere. The reference model is the same vocabulary with
seeded logit noise of std ``ref_drift`` on each sampled token.

Shapes: K answers, T = the longest answer's tokens; arrays are (K, T), mask 1 on tokens.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from grpo_core import _checks
from grpo_core.advantages import group_advantages

MAX_ANSWERS = 16
MAX_TOKENS = 24
PRESETS = {  # name: (title, rewards, tokens per answer)
    "binary": ("Pass/fail, 4 of 8 right", (1, 0, 1, 1, 0, 0, 1, 0), (5, 7, 4, 6, 8, 3, 5, 6)),
    "one-success": ("One right answer in 8", (1, 0, 0, 0, 0, 0, 0, 0), (6, 5, 7, 4, 6, 8, 5, 6)),
    "long-answer": (
        "One long answer among short ones",
        (1, 0, 1, 0),
        (20, 4, 5, 6),
    ),
    "all-equal": ("All answers right: zero spread", (1, 1, 1, 1), (5, 6, 4, 7)),
}
"""The page's preset groups: a title, the rewards and each answer's token count."""


@dataclass(frozen=True)
class ToyBatch:
    """One group, token by token."""

    rewards: np.ndarray
    """(K,) the verifier's rewards."""
    advantages: np.ndarray
    """(K,) GRPO advantages (TRL's convention: sample std, eps 1e-4)."""
    mask: np.ndarray
    """(K, T) 1 on each answer's tokens, 0 on padding."""
    old_logp: np.ndarray
    """(K, T) log p of each sampled token when it was sampled (0 on padding)."""
    logp: np.ndarray
    """(K, T) log p of the same tokens after the step."""
    ref_logp: np.ndarray
    """(K, T) log p under the reference model."""

    @property
    def lengths(self) -> np.ndarray:
        return self.mask.sum(axis=1).astype(int)


def default_lengths(num_answers: int, seed: int = 0) -> tuple[int, ...]:
    """Token counts for a group without its own: 3 to 8 tokens, seeded."""
    rng = np.random.default_rng(seed)
    return tuple(int(n) for n in rng.integers(3, 9, num_answers))


def toy_batch(rewards, lengths, *, step: float, seed: int = 0, ref_drift: float = 0.3) -> ToyBatch:
    """The batch for rewards (K,) and token counts (K,): old log-probs drawn once per seed
    (token probabilities from 0.02 to 0.98, some unlikely), log-probs after a logit bump
    of ``step x A``, and a reference model ``ref_drift`` away (see the module doc)."""
    rewards = _checks.one_group(rewards)
    lengths = _checks.token_lengths(lengths)
    if len(lengths) != len(rewards):
        raise ValueError(
            f"give one token count per answer: {len(rewards)} rewards, {len(lengths)} counts."
        )
    if len(rewards) < 2 or len(rewards) > MAX_ANSWERS:
        raise ValueError(f"the lab takes 2 to {MAX_ANSWERS} answers, got {len(rewards)}.")
    if lengths.max() > MAX_TOKENS:
        raise ValueError(f"an answer has at most {MAX_TOKENS} tokens here.")
    step = _checks.finite(step, "step")
    ref_drift = _checks.non_negative(ref_drift, "ref_drift")
    advantages = group_advantages(rewards, convention="trl")
    K, T = len(rewards), int(lengths.max())
    mask = (np.arange(T)[None, :] < lengths[:, None]).astype(np.float64)

    rng = np.random.default_rng(seed)
    p = np.where(
        rng.random((K, T)) < 0.25, rng.uniform(0.02, 0.2, (K, T)), rng.uniform(0.3, 0.98, (K, T))
    )
    old_logp = np.log(p) * mask
    logp = logit_bump(old_logp, step * advantages[:, None]) * mask
    ref_logp = logit_bump(old_logp, rng.normal(0.0, ref_drift, (K, T))) * mask
    return ToyBatch(rewards, advantages, mask, old_logp, logp, ref_logp)


def with_probabilities(toy: ToyBatch, edits) -> ToyBatch:
    """``toy`` with token probabilities set by hand: ``edits`` holds (answer, token, p_old,
    p_new), 1-based, each probability in (0, 1]. The reference model stays as it was."""
    old_logp, logp = toy.old_logp.copy(), toy.logp.copy()
    for answer, token, p_old, p_new in edits:
        i, t = int(answer) - 1, int(token) - 1
        if not (0 <= i < len(toy.rewards) and 0 <= t < toy.lengths[i]):
            raise ValueError(f"answer {answer} has no token {token}.")
        for name, p in (("p_old", p_old), ("p_new", p_new)):
            if not (isinstance(p, (int, float)) and 0 < p <= 1):
                raise ValueError(
                    f"{name} of answer {answer}, token {token} must be a probability in (0, 1], "
                    f"got {p!r}."
                )
        old_logp[i, t], logp[i, t] = np.log(p_old), np.log(p_new)
    return replace(toy, old_logp=old_logp, logp=logp)


def probabilities_table(toy: ToyBatch) -> dict[str, list]:
    """Columns answer, token, p_old, p_new: one row per real token (1-based labels)."""
    i, t = np.nonzero(toy.mask)
    return {
        "answer": (i + 1).tolist(),
        "token": (t + 1).tolist(),
        "p_old": np.exp(toy.old_logp[i, t]).tolist(),
        "p_new": np.exp(toy.logp[i, t]).tolist(),
    }


def logit_bump(logp: np.ndarray, z) -> np.ndarray:
    """log p after adding z to the token's logit: log p + z - log(1 - p + p e^z), <= 0."""
    p = np.exp(logp)
    return np.minimum(logp + z - np.log1p(p * np.expm1(z)), 0.0)


def kl_estimators(logp, ref_logp, mask) -> dict[str, np.ndarray]:
    """Schulman's three per-token estimates of KL(pi || pi_ref), each (K, T), 0 on padding.

    With d = log pi_ref - log pi on tokens sampled from pi: k1 = -d (unbiased, can be < 0),
    k2 = d^2 / 2 (biased, >= 0), k3 = e^d - 1 - d (unbiased, >= 0; GRPO's estimator)."""
    d = (np.asarray(ref_logp) - np.asarray(logp)) * mask
    return {"k1": -d, "k2": d**2 / 2, "k3": (np.exp(d) - 1 - d) * mask}


def kl_in_reward(rewards, kl_k1, mask, beta: float) -> np.ndarray:
    """(K,) the rewards after a KL penalty, as RLOO and OpenRLHF put it in the reward:
    R - beta x (sum of the answer's k1), before advantages are formed."""
    beta = _checks.non_negative(beta, "beta")
    return np.asarray(rewards, dtype=np.float64) - beta * (kl_k1 * mask).sum(axis=1)
