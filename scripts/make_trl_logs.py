"""Real TRL training logs: run GRPOTrainer on CPU and keep the completions files it writes.

Each configuration trains a tiny randomly initialised Llama (2 layers, a word-level tokenizer
built here from a few strings; no hub, no download) for four steps with
``log_completions=True``. TRL then writes ``output_dir/completions/completions_<step>.parquet``,
one file per logging step holding that step's generation batch (trl/trainer/grpo_trainer.py,
``GRPOTrainer.log``, TRL 1.16.0).

    .venv/bin/python scripts/make_trl_logs.py [OUT_DIR]

writes OUT_DIR/<run>/completions/completions_0000N.parquet and OUT_DIR/<run>/run.json (what the
run was configured with). Default OUT_DIR: .cache/trl_logs/trl-<version>.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

STEPS = 4
WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "plus",
    "equals",
    "yes",
    "no",
    "maybe",
]


@dataclass(frozen=True)
class Run:
    """One GRPOTrainer configuration and what the log page should infer from its files."""

    name: str
    rewards: tuple[str, ...] = ("accuracy_reward",)
    scale_rewards: str | bool = "group"
    loss_type: str = "dapo"
    aggregation: str = "sum_then_normalize"
    num_generations: int = 4
    batch_size: int = 8
    conversational: bool = False
    repeat_prompts: bool = False
    log_extra: bool = False
    extra: dict = field(default_factory=dict)


RUNS = (
    Run("defaults"),
    Run("batch", scale_rewards="batch"),
    Run("dr_grpo", scale_rewards=False, loss_type="dr_grpo"),
    Run("two_rewards", rewards=("accuracy_reward", "length_penalty")),
    Run(
        "three_rewards",
        rewards=("accuracy_reward", "length_penalty", "format_reward"),
        num_generations=3,
        batch_size=9,
    ),
    Run("gdpo", rewards=("accuracy_reward", "length_penalty"), aggregation="normalize_then_sum"),
    Run("conversational", conversational=True),
    Run("neutral_names", rewards=("is_right", "length_penalty")),
    Run("log_extra", rewards=("is_right", "length_penalty"), log_extra=True),
    Run("repeated_prompts", repeat_prompts=True, batch_size=16),
)


def _digits(text: str) -> int:
    """How many digit words a completion holds."""
    return sum(word in WORDS[:10] for word in text.split())


def _text(completion) -> str:
    """A completion's text, conversational (a list of messages) or plain."""
    if isinstance(completion, list):
        return " ".join(message["content"] for message in completion)
    return completion


def accuracy_reward(completions, log_extra=None, **_):
    """1.0 when the completion holds an even number of digit words, else 0.0."""
    texts = [_text(c) for c in completions]
    if log_extra is not None:
        log_extra("verdict", ["even" if _digits(t) % 2 == 0 else "odd" for t in texts])
        log_extra("num_digits", [_digits(t) for t in texts])
    return [float(_digits(t) % 2 == 0) for t in texts]


def length_penalty(completions, **_):
    """-0.1 per word: a continuous reward, so groups rarely tie."""
    return [-0.1 * len(_text(c).split()) for c in completions]


def format_reward(completions, **_):
    """0.5 when the completion says yes, no or maybe."""
    return [0.5 * any(w in _text(c).split() for w in ("yes", "no", "maybe")) for c in completions]


def _named(func, name: str, log: bool):
    """func named name (TRL names a reward column after its function); log_extra on or off."""

    def reward(completions, log_extra=None, **_):
        return func(completions, log_extra=log_extra if log else None)

    reward.__name__ = name
    return reward


BASES = {
    "accuracy_reward": accuracy_reward,
    "is_right": accuracy_reward,
    "length_penalty": length_penalty,
    "format_reward": format_reward,
}


def reward_funcs(run: Run) -> list:
    """The run's reward functions, named as its columns will be; the first one logs extras."""
    return [
        _named(BASES[name], name, run.log_extra and i == 0) for i, name in enumerate(run.rewards)
    ]


def tokenizer():
    """A word-level tokenizer trained on WORDS, with a chat template: built here, no hub."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    raw = Tokenizer(models.WordLevel(unk_token="<unk>"))
    raw.pre_tokenizer = pre_tokenizers.Whitespace()
    special = ["<pad>", "<unk>", "<s>", "</s>", "<user>", "<assistant>"]
    raw.train_from_iterator(
        [" ".join(WORDS)] * 4, trainers.WordLevelTrainer(special_tokens=special)
    )
    tok = PreTrainedTokenizerFast(
        tokenizer_object=raw,
        pad_token="<pad>",
        unk_token="<unk>",
        bos_token="<s>",
        eos_token="</s>",
    )
    tok.chat_template = (
        "{% for m in messages %}{{ '<' + m['role'] + '> ' + m['content'] + ' ' }}{% endfor %}"
        "{% if add_generation_prompt %}{{ '<assistant> ' }}{% endif %}"
    )
    return tok


def model(tok):
    """A 2-layer Llama with random weights sized to the tokenizer (seeded)."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(tok),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=4,
        max_position_embeddings=128,
        pad_token_id=tok.pad_token_id,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
    )
    return LlamaForCausalLM(config)


def dataset(run: Run):
    """64 distinct prompts, or two texts repeated so a step holds one text in several groups."""
    from datasets import Dataset

    n_texts = 2 if run.repeat_prompts else 64
    texts = [f"{WORDS[i % 10]} plus {WORDS[(3 * i) % 10]} equals" for i in range(n_texts)]
    texts = [texts[i % n_texts] for i in range(64)]
    if run.conversational:
        return Dataset.from_dict({"prompt": [[{"role": "user", "content": t}] for t in texts]})
    return Dataset.from_dict({"prompt": texts})


def train(run: Run, out: Path) -> None:
    """Run GRPOTrainer for STEPS steps; its completions files land in out/completions."""
    from trl import GRPOConfig, GRPOTrainer

    tok = tokenizer()
    args = GRPOConfig(
        output_dir=str(out),
        report_to="none",
        use_cpu=True,
        bf16=False,
        seed=0,
        per_device_train_batch_size=run.batch_size,
        num_generations=run.num_generations,
        max_completion_length=8,
        max_steps=STEPS,
        logging_steps=1,
        save_strategy="no",
        log_completions=True,
        num_completions_to_print=0,
        scale_rewards=run.scale_rewards,
        loss_type=run.loss_type,
        multi_objective_aggregation=run.aggregation,
        temperature=1.0,
        disable_tqdm=True,
        dataloader_num_workers=0,
    )
    trainer = GRPOTrainer(
        model=model(tok),
        reward_funcs=reward_funcs(run),
        args=args,
        train_dataset=dataset(run),
        processing_class=tok,
    )
    trainer.train()
    (out / "run.json").write_text(json.dumps(asdict(run), indent=1))


def main(argv: list[str]) -> int:
    import trl

    root = Path(argv[1]) if len(argv) > 1 else Path(".cache/trl_logs") / f"trl-{trl.__version__}"
    names = set(argv[2:])
    for run in RUNS:
        out = root / run.name
        if (names and run.name not in names) or (out / "run.json").exists():
            continue
        train(run, out)
        print(run.name, sorted(p.name for p in (out / "completions").iterdir()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
