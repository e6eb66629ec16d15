"""Leave-one-writer-out evaluation of a learned verifier combined with the rule grader.

For each left-out writer, with the verifier's scores from a model that never saw that writer:
(a) the rules alone; (b) rules AND verifier (a credit stands only if the verifier's score
reaches t_b); (c) rules OR a confident verifier (a point the rules miss is credited when the
score reaches t_c); (d) both at once; (v) the verifier alone (score >= t_v). Every threshold
is chosen on the other writers' pairs only (their out-of-fold scores and labels), maximising
min(precision / 0.95, recall / 0.90) (``--objective precision``: the best recall at precision
0.95). Also counted: swapped-relation and keyword-salad
answers credited above 25 % (and beyond their labels).

``--rules then`` grades each writer with the rules as they were before anyone read that
writer (``bench/verifier_rules_then.py``: A and B at 3a7ab3c, C and D at df78b68); ``now``
with today's rules, which were tuned on every one of these sets.

    .venv/bin/python bench/verifier_eval.py --scores ce --rules then --writers A B C D
    .venv/bin/python bench/verifier_eval.py --scores lr --rules now
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

OUT = Path("/tmp/verifier")
THEN = {"indep": "a6ebc38", "A": "3a7ab3c", "B": "3a7ab3c", "C": "df78b68", "D": "df78b68"}
GRID = np.round(np.arange(0.02, 1.0, 0.02), 2)


def load_scores(kind: str, n: int) -> np.ndarray:
    """Out-of-fold scores, NaN where a pair has none."""
    s = np.full(n, np.nan)
    for path in sorted(OUT.glob(f"{kind}-*.json")):
        for i, v in json.loads(path.read_text(encoding="utf-8")):
            s[i] = v
    return s


def load_rules(pairs: list[dict], mode: str) -> np.ndarray:
    if mode == "now":
        return np.array([r["rule"] for r in pairs])
    then = {}
    for commit in set(THEN.values()):
        then.update(json.loads((OUT / f"then-{commit}.json").read_text(encoding="utf-8")))
    keys = [f"{r['writer']}|{r['question']}|{r['point']}|{r['text']}" for r in pairs]
    return np.array([then.get(k, r["rule"]) for k, r in zip(keys, pairs, strict=True)])


def pr(pred: np.ndarray, y: np.ndarray) -> tuple[float, float, int, int, int]:
    tp, fp, fn = int((pred & y).sum()), int((pred & ~y).sum()), int((~pred & y).sum())
    return (tp / (tp + fp) if tp + fp else 1.0, tp / (tp + fn) if tp + fn else 1.0, tp, fp, fn)


OBJECTIVE = ["both"]
"""How thresholds are chosen on the training writers: "both" maximises
min(precision / 0.95, recall / 0.90); "precision" the recall among thresholds reaching
precision 0.95 (the highest precision if none does)."""


def goal(pred: np.ndarray, y: np.ndarray) -> float:
    p, r, *_ = pr(pred, y)
    if OBJECTIVE[0] == "precision":
        return 1.0 + r if p >= 0.95 else p
    return min(p / 0.95, r / 0.90)


def combine(kind: str, rule: np.ndarray, s: np.ndarray, tb: float, tc: float) -> np.ndarray:
    if kind == "a":
        return rule
    if kind == "b":
        return rule & (s >= tb)
    if kind == "c":
        return rule | (s >= tc)
    if kind == "d":
        return (rule & (s >= tb)) | (~rule & (s >= tc))
    return s >= tb  # v


def choose(kind: str, rule, s, y) -> tuple[float, float]:
    """(t_b, t_c) maximising ``goal`` on these (training) pairs."""
    if kind == "a":
        return 0.0, 1.1
    best = (-1.0, 0.0, 1.1)
    tbs = GRID if kind in ("b", "d", "v") else [0.0]
    tcs = GRID if kind in ("c", "d") else [1.1]
    for tb in tbs:
        for tc in tcs:
            if kind == "d" and tc < tb:
                continue
            g = goal(combine(kind, rule, s, tb, tc), y)
            if g > best[0]:
                best = (g, tb, tc)
    return best[1], best[2]


def over_25(pairs, idx, pred) -> tuple[int, int]:
    """Swapped or keyword-salad answers credited above 25 % (and beyond their labels)."""
    credit, labelled = defaultdict(list), defaultdict(list)
    for i in idx:
        r = pairs[i]
        if r["category"] in ("swapped", "keyword_salad"):
            key = (r["writer"], r["question"], r["text"])
            credit[key].append(pred[i])
            labelled[key].append(r["label"])
    over = [k for k in credit if np.mean(credit[k]) > 0.25]
    beyond = [k for k in over if np.mean(credit[k]) > np.mean(labelled[k])]
    return len(over), len(beyond)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scores", default="ce")
    ap.add_argument("--rules", default="then", choices=("then", "now"))
    ap.add_argument("--writers", nargs="*")
    ap.add_argument("--objective", default="both", choices=("both", "precision"))
    args = ap.parse_args()
    OBJECTIVE[0] = args.objective
    pairs = json.loads((OUT / "pairs.json").read_text(encoding="utf-8"))
    y = np.array([r["label"] for r in pairs])
    rule = load_rules(pairs, args.rules)
    s = load_scores(args.scores, len(pairs))
    writers = np.array([r["writer"] for r in pairs])
    folds = args.writers or sorted({w for w, v in zip(writers, s, strict=True) if v == v})
    if args.rules == "then" and any(w not in THEN for w in folds):
        raise SystemExit(f"--rules then has earlier rules for {sorted(THEN)} only")
    pooled = {k: np.zeros(len(pairs), dtype=bool) for k in "abcdv"}
    test = np.zeros(len(pairs), dtype=bool)
    print(
        f"scores {args.scores}, rules {args.rules}, objective {args.objective}, "
        f"folds {' '.join(folds)}"
    )
    for w in folds:
        tr = np.isin(writers, folds) & (writers != w) & ~np.isnan(s)
        te = writers == w
        test |= te
        cells = []
        for kind in "abcdv":
            tb, tc = choose(kind, rule[tr], s[tr], y[tr])
            pred = combine(kind, rule[te], s[te], tb, tc)
            pooled[kind][te] = pred
            p, r, tp, fp, fn = pr(pred, y[te])
            full = np.zeros(len(pairs), dtype=bool)
            full[te] = pred
            o, b = over_25(pairs, np.where(te)[0], full)
            th = {
                "a": "",
                "b": f"tb={tb}",
                "c": f"tc={tc}",
                "d": f"tb={tb},tc={tc}",
                "v": f"t={tb}",
            }[kind]
            cells.append(
                f"({kind}) P {p:.3f} R {r:.3f} fp {fp:3d} fn {fn:3d} sw/salad>25% {o} ({b}) {th}"
            )
        print(f"-- {w} ({te.sum()} pairs)")
        print("\n".join("   " + c for c in cells))
    print("-- pooled over left-out writers")
    for kind in "abcdv":
        p, r, tp, fp, fn = pr(pooled[kind][test], y[test])
        o, b = over_25(pairs, np.where(test)[0], pooled[kind])
        print(f"   ({kind}) P {p:.3f} R {r:.3f} tp {tp} fp {fp} fn {fn} sw/salad>25% {o} ({b})")


if __name__ == "__main__":
    main()
