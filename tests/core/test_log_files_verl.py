"""verl's rollout dump, as its writer makes it, read by the log page's loader.

verl cannot run here (it needs Ray and a GPU rollout engine), so the dump is written by a
copy of its writer's logic: verl 0.9.1, verl/trainer/ppo/ray_trainer.py,
``RayPPOTrainer._write_generations`` (called from ``_log_rollout_data`` when
``trainer.rollout_data_dir`` is set): ``<rollout_data_dir>/<global_step>.jsonl``, one JSON
object a line with ``input``, ``output``, ``gts``, ``score`` (the summed token-level
score), ``step`` and every reward-extra field (for example ``acc``). No advantage and no
uid are written. The prompts are repeated with ``repeat(interleave=True)`` (K consecutive
rows), but ``trainer.balance_batch`` (True by default) reorders the batch by sequence
length before the dump, so a group's rows are not consecutive: they can only be grouped
by their prompt text.
"""

import json

import numpy as np

from grpo_core.log_files import load_logs
from grpo_core.log_grouping import BY_TEXT

K, PROMPTS = 4, 6


def write_generations(inputs, outputs, gts, scores, extra, step) -> bytes:
    """verl 0.9.1's ``_write_generations``, writing to bytes instead of a file."""
    n = len(inputs)
    base = {"input": inputs, "output": outputs, "gts": gts, "score": scores, "step": [step] * n}
    base |= {k: v for k, v in extra.items() if len(v) == n}
    lines = [json.dumps({k: v[i] for k, v in base.items()}, ensure_ascii=False) for i in range(n)]
    return ("\n".join(lines) + "\n").encode()


def verl_step(step: int, rng) -> bytes:
    prompts = np.repeat([f"What is {p} + {step}?" for p in range(PROMPTS)], K)  # interleave
    right = rng.integers(0, 2, PROMPTS * K)
    balanced = rng.permutation(PROMPTS * K)  # balance_batch reorders the rows
    return write_generations(
        inputs=prompts[balanced].tolist(),
        outputs=[f"<think>…</think> answer {i}" for i in balanced],
        gts=[str(p + step) for p in range(PROMPTS) for _ in range(K)],
        scores=right[balanced].astype(float).tolist(),
        extra={"acc": right[balanced].astype(float).tolist()},
        step=step,
    )


def test_a_verl_rollout_dir_is_read_and_grouped_by_prompt_text():
    rng = np.random.default_rng(0)
    files = [(f"{s}.jsonl", verl_step(s, rng)) for s in (1, 2, 3)]
    log = load_logs(files)
    assert log.mapping.prompt == "input" and log.mapping.completion == "output"
    assert log.mapping.rewards == ("score",)
    assert log.grouping.how == BY_TEXT
    assert log.frame.groupby("group_no").size().eq(K).all()
    assert sorted(log.frame["step"].unique()) == [1, 2, 3]
    assert log.roles["acc"] == "extra" and log.roles["gts"] == "extra (text)"
    assert any("'acc' holds numbers" in w for w in log.warnings)
