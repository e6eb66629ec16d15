"""A nearest-neighbour verifier on frozen all-MiniLM-L6-v2 embeddings, leave-one-writer-out:
is an answer closer to the other writers' answers that make this key point than to those
(of the same question) that do not?

Per (answer, key point): the best cosine between any of the answer's sentences (or adjacent
pairs) and any sentence of a training answer labelled as making the point, the mean of the
top three, and the same against the same question's answers labelled as not making it; with
``verifier_frozen``'s features, a logistic regression fit on the training writers (whose own
neighbour features are computed leave-one-writer-out as well, so train and test match).

    nice -n 10 .venv/bin/python bench/verifier_frozen.py   # embeds, caches the vectors
    nice -n 10 .venv/bin/python bench/verifier_knn.py

Writes /tmp/verifier/knn-all.json: [[pair index, score], ...].
"""

from __future__ import annotations

import itertools
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))

from verifier_frozen import OUT, features, fit_logistic


def units(r: dict) -> list[str]:
    sents = r["sentences"] or [r["text"]]
    return sents + [f"{a} {b}" for a, b in itertools.pairwise(sents)]


def neighbour_features(pairs, vec, writers_of) -> np.ndarray:
    """(n, 4): top-1 and top-3 mean similarity to made / not-made exemplars of the same
    point from writers other than the pair's own (and other than ``writers_of[i]``, the
    fold's left-out writer)."""
    pools = defaultdict(list)  # (question, point, label) -> [(writer, unit matrix)]
    mats = {}
    for r in pairs:
        if r["text"] not in mats:
            mats[r["text"]] = np.stack([vec[u] for u in units(r)])
        pools[(r["question"], r["point"], r["label"])].append((r["writer"], mats[r["text"]]))
    out = np.zeros((len(pairs), 4), dtype=np.float32)
    for i, r in enumerate(pairs):
        mine = mats[r["text"]]
        for j, lab in enumerate((True, False)):
            sims = [
                float((mine @ m.T).max())
                for w, m in pools[(r["question"], r["point"], lab)]
                if w != r["writer"] and w != writers_of[i]
            ]
            top = np.sort(sims)[::-1] if sims else np.zeros(1)
            out[i, 2 * j] = top[0]
            out[i, 2 * j + 1] = top[:3].mean()
    return out


def main() -> None:
    torch.set_num_threads(1)
    pairs = json.loads((OUT / "pairs.json").read_text(encoding="utf-8"))
    loaded = np.load(OUT / "frozen_vecs.npz", allow_pickle=True)
    vec = dict(zip(loaded["texts"].tolist(), loaded["vecs"], strict=True))
    point_ids = {k: i for i, k in enumerate(sorted({(r["question"], r["point"]) for r in pairs}))}
    base = features(pairs, vec, point_ids)
    y = np.array([r["label"] for r in pairs], dtype=np.float32)
    writers = np.array([r["writer"] for r in pairs])
    scores = np.zeros(len(pairs))
    for w in sorted(set(writers)):
        nb = neighbour_features(pairs, vec, [w] * len(pairs)) * 5
        x = np.concatenate([base, nb, nb[:, :2] - nb[:, 2:]], axis=1)
        lin = fit_logistic(x[writers != w], y[writers != w])
        with torch.no_grad():
            te = torch.tensor(x[writers == w])
            scores[writers == w] = torch.sigmoid(lin(te)).squeeze(-1).numpy()
        print(f"fold {w} done", flush=True)
    path = OUT / "knn-all.json"
    path.write_text(json.dumps([[i, float(s)] for i, s in enumerate(scores)]), encoding="utf-8")
    print(f"-> {path}")


if __name__ == "__main__":
    main()
