"""Per-token rewards, values and advantages: PPO's GAE and GRPO's shared advantage.

Layout of a batch of B responses to one prompt, padded to T tokens:

- ``lengths`` (B,): real tokens per response, each >= 1.
- ``mask`` (B, T) bool: ``mask[b, t]`` is True for the real tokens of response b.
- per-token arrays (B, T): ``rewards``, ``values``, ``advantages``; 0 on padding.

Token t of a response is the action taken in state s_t (the prompt and the
tokens before t); ``values[b, t]`` is the critic's V(s_t). The response ends
after its last real token: the state after it is terminal.

PPO (Schulman et al. 2017, arXiv 1707.06347) in RLHF (InstructGPT, arXiv
2203.02155) puts the outcome reward on the last token, subtracts a per-token
KL penalty, and turns the critic's values into advantages with GAE (arXiv
1506.02438). GRPO (DeepSeekMath, arXiv 2402.03300) gives every token of a
response the same group-normalised advantage and needs no critic.
"""

from __future__ import annotations

import numpy as np

from grpo_core import _checks
from grpo_core.advantages import group_advantages


def token_mask(lengths, num_tokens: int | None = None) -> np.ndarray:
    """(B, T) bool: True on the first ``lengths[b]`` tokens of row b.

    lengths: (B,) whole numbers >= 1. T is ``num_tokens`` or max(lengths).
    """
    lengths = _checks.token_lengths(lengths)
    t = (
        int(lengths.max())
        if num_tokens is None
        else _checks.whole(num_tokens, "num_tokens", minimum=1)
    )
    if t < lengths.max():
        raise ValueError(
            f"num_tokens={t} is shorter than the longest response ({lengths.max()} tokens)."
        )
    return np.arange(t) < lengths[:, None]


def token_rewards(lengths, outcome, kl=None, kl_coef: float = 0.0) -> np.ndarray:
    """Per-token rewards (B, T): r_t = -kl_coef * kl_t, plus the outcome on the last real token.

    lengths: (B,) real tokens per response. outcome: (B,) the verifier's or
    reward model's score of each whole response. kl: optional (B, T) per-token
    KL estimate log pi(o_t) - log pi_ref(o_t) (T >= max(lengths); without it
    T = max(lengths)). kl_coef: the KL penalty coefficient beta, >= 0.

    Padding gets 0. This is the InstructGPT/PPO reward; GRPO instead adds the
    KL term to the loss, not the reward (DeepSeekMath, section 4.1).
    """
    lengths = _checks.token_lengths(lengths)
    outcome = _checks.finite_array(outcome, "outcome", shape=lengths.shape)
    kl_coef = _checks.non_negative(kl_coef, "kl_coef")
    if kl is None:
        mask = token_mask(lengths)
        rewards = np.zeros(mask.shape)
    else:
        kl = np.asarray(kl, dtype=np.float64)
        if kl.ndim != 2 or kl.shape[0] != lengths.size:
            raise ValueError(
                f"kl must have shape (responses, tokens) = ({lengths.size}, T), got {kl.shape}."
            )
        mask = token_mask(lengths, kl.shape[1])
        _checks.finite_where(kl, mask, "kl")
        rewards = np.where(mask, -kl_coef * kl, 0.0)
    rewards[np.arange(lengths.size), lengths - 1] += outcome
    return rewards


def expected_returns(
    outcome,
    lengths,
    *,
    prior=None,
    kl=None,
    kl_coef: float = 0.0,
    gamma: float = 1.0,
) -> np.ndarray:
    """(B, T) the true value V*(s_t) of the toy task: what a perfect critic would predict.

    The toy: before any token the response succeeds with probability
    ``prior`` p (default: the mean outcome of the batch, i.e. the group
    mean, GRPO's baseline); as tokens are written its outcome R becomes
    evident linearly, so the expected outcome after t of L tokens is
    b_t = p + (R - p) t / L. With the KL rewards of ``token_rewards``,

        V*(s_t) = gamma^(L-1-t) b_t - kl_coef sum_{u=t}^{L-1} gamma^(u-t) kl_u.

    Padding gets 0. Feed it to ``toy_values`` to add a critic's errors.
    """
    lengths = _checks.token_lengths(lengths)
    outcome = _checks.finite_array(outcome, "outcome", shape=lengths.shape)
    gamma = _checks.unit_interval(gamma, "gamma")
    p = outcome.mean() if prior is None else _checks.finite_array(prior, "prior", shape=None)
    p = np.broadcast_to(p, lengths.shape)
    kl_rewards = token_rewards(lengths, np.zeros(lengths.size), kl=kl, kl_coef=kl_coef)
    mask = token_mask(lengths, kl_rewards.shape[1])
    t = np.arange(mask.shape[1])
    belief = p[:, None] + (outcome - p)[:, None] * t / lengths[:, None]
    steps_to_end = np.maximum(lengths[:, None] - 1 - t, 0)
    values = gamma**steps_to_end * belief
    # discounted KL penalties to go; a reverse loop over T (T is small)
    to_go = np.zeros(lengths.size)
    for i in reversed(range(mask.shape[1])):
        to_go = np.where(mask[:, i], kl_rewards[:, i] + gamma * to_go, 0.0)
        values[:, i] += to_go
    return np.where(mask, values, 0.0)


def gae(rewards, values, *, gamma: float, lam: float, mask=None) -> np.ndarray:
    """Generalised advantage estimates (B, T) (Schulman et al. 2016, arXiv 1506.02438).

        delta_t = r_t + gamma V(s_{t+1}) - V(s_t),   A_t = sum_l (gamma lam)^l delta_{t+l}

    computed backwards as A_t = delta_t + gamma lam A_{t+1}, over the real
    tokens of each response only (the tokens where ``mask`` is True; masked
    tokens are skipped wherever they are, as in verl's
    ``compute_gae_advantage_return``, and get advantage 0).

    rewards: (B, T) per-token rewards, or (T,) for one response.
    values: (B, T) V(s_t); the state after the last real token is terminal,
        V = 0. Or (B, T+1): column T is the bootstrap value of the state after
        the last real token (for responses cut off before they ended).
    gamma, lam: in [0, 1]. mask: (B, T) bool, default all True.

    The returns (value targets) are ``advantages + values[:, :T]``. Trainers
    then usually whiten the advantages over the batch; that is not done here.
    """
    rewards = np.asarray(rewards, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    one_response = rewards.ndim == 1
    if one_response:
        rewards, values = rewards[None], values[None]
        mask = None if mask is None else np.asarray(mask)[None]
    if rewards.ndim != 2:
        raise ValueError(f"rewards must be (responses, tokens), got {rewards.ndim} dimensions.")
    b, t = rewards.shape
    if values.shape == (b, t):
        bootstrap = np.zeros(b)
    elif values.shape == (b, t + 1):
        bootstrap = values[:, t]
    else:
        raise ValueError(
            f"values must have shape {(b, t)} (terminal value 0 after the last token) or "
            f"{(b, t + 1)} (last column is the bootstrap value), got {values.shape}."
        )
    gamma = _checks.unit_interval(gamma, "gamma")
    lam = _checks.unit_interval(lam, "lam")
    mask = np.ones((b, t), dtype=bool) if mask is None else _checks.token_mask(mask, (b, t))
    _checks.finite_where(rewards, mask, "rewards")
    _checks.finite_where(values[:, :t], mask, "values")
    if not np.all(np.isfinite(bootstrap)):
        raise ValueError("the bootstrap values (last column of values) must be finite.")

    advantages = np.zeros((b, t))
    next_value = bootstrap  # V(s_{t+1}) of the next real token, per response
    lastgaelam = np.zeros(b)  # A_{t+1}
    with np.errstate(invalid="ignore", over="ignore"):  # padding may hold anything
        for i in reversed(range(t)):
            real = mask[:, i]
            delta = rewards[:, i] + gamma * next_value - values[:, i]
            a = delta + gamma * lam * lastgaelam
            advantages[:, i] = np.where(real, a, 0.0)
            lastgaelam = np.where(real, a, lastgaelam)
            next_value = np.where(real, values[:, i], next_value)
    return advantages[0] if one_response else advantages


def grpo_token_advantages(outcome_rewards, lengths, *, convention: str = "trl") -> np.ndarray:
    """GRPO's per-token advantages: A_i of ``group_advantages`` on every real token of response i.

    outcome_rewards: (K,) one prompt's group, or (P, K) P prompts.
    lengths: same shape, real tokens per response.
    Returns shape ``outcome_rewards.shape + (T,)``, T = max(lengths), 0 on
    padding. Every token of a response shares one advantage: no per-token
    credit assignment. (GRPO's loss then averages each response's tokens by
    1/|o_i|; Dr. GRPO drops that. That changes weights, not advantages.)
    """
    advantages = group_advantages(outcome_rewards, convention=convention)
    lengths = np.asarray(lengths)
    if lengths.shape != advantages.shape:
        raise ValueError(
            f"lengths must have the shape of outcome_rewards {advantages.shape}, "
            f"got {lengths.shape}."
        )
    mask = token_mask(lengths.ravel()).reshape(*lengths.shape, -1)
    return np.where(mask, advantages[..., None], 0.0)
