"""A small training log in TRL's completions-table layout, made by the app's own samplers.

Columns as TRL's GRPOTrainer logs them: ``step``, ``prompt``, ``completion``, one column
per reward function (here ``accuracy_reward`` and ``format_reward``) and ``advantage``.
The rewards come from ``grpo_core.rewards`` (a verifier whose pass rate falls from easy to
hard prompts, and a format bonus); the advantage is TRL's default computed as TRL does,
in float32 (sum of the rewards, group mean, sample std + 1e-4). It is made up, and the
page says so.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from grpo_core.conventions import CONVENTIONS
from grpo_core.precision import float32_advantages
from grpo_core.rewards import binary_verifier

FORMAT_BONUS = 0.1
"""The format reward of a well-formatted answer (0 otherwise)."""
PASS_RATES = (1.0, 0.75, 0.5, 0.25, 0.0)
"""Pass rate of prompt p (cycled): an always-solved and a never-solved prompt give
zero-spread groups, as real logs have."""


MAX_ROWS = 100_000
"""The most rows a sample log may have (steps · prompts · k): it is built row by row."""


def sample_log(rng: np.random.Generator, *, steps: int = 8, prompts: int = 5, k: int = 8):
    """(steps · prompts · k) rows in TRL's layout; the pass rates rise a little each step.

    ValueError unless steps, prompts and k are whole numbers >= 1 (k >= 2) and their
    product is at most MAX_ROWS."""
    sizes = {"steps": steps, "prompts": prompts, "k": k}
    for name, value in sizes.items():
        if not isinstance(value, int | np.integer) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {value!r}.")
    if k < 2:
        raise ValueError("k must be at least 2: a group of one answer has no sample std.")
    if steps * prompts * k > MAX_ROWS:
        raise ValueError(f"steps · prompts · k must be at most {MAX_ROWS:,} rows.")
    rows = []
    trl = CONVENTIONS["trl"]
    for step in range(1, steps + 1):
        rates = np.clip(np.resize(PASS_RATES, prompts) + 0.02 * (step - 1), 0.0, 1.0)
        accuracy = binary_verifier(rng, prompts, k, rates)
        formatting = FORMAT_BONUS * binary_verifier(rng, prompts, k, 0.9)
        advantage = float32_advantages(accuracy + formatting, eps=trl.eps, ddof=trl.ddof)
        for p in range(prompts):
            for i in range(k):
                right = "right" if accuracy[p, i] else "wrong"
                tidy = "formatted" if formatting[p, i] else "unformatted"
                rows.append(
                    {
                        "step": step,
                        "prompt": f"Sample prompt {p + 1}: what is {17 + p} × {23 + p}?",
                        "completion": f"(sampled answer {i + 1}: {right}, {tidy})",
                        "accuracy_reward": accuracy[p, i],
                        "format_reward": formatting[p, i],
                        "advantage": np.float32(advantage[p, i]).item(),
                    }
                )
    return pd.DataFrame(rows)
