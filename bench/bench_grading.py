"""The follow-up grader on a labelled evaluation set: per-question and overall precision
and recall of per-point credit, per category, and the swapped-relation or keyword-salad
answers credited above 25 %.

The fresh held-out set (``tests/practice/followup_eval/heldout_fresh.toml``, 242 answers
written without the key points, labelled per point, never studied) is the measure of how
the grader generalises; it is blind (``metrics.BLIND``): only its overall and per-question
figures are printed, never an answer. The default set, ``heldout_independent.toml``, was
held out once but has been studied answer by answer since (a tuning set now).

    .venv/bin/python bench/bench_grading.py --set heldout_fresh.toml
    .venv/bin/python bench/bench_grading.py --set tuning_independent.toml
    .venv/bin/python bench/bench_grading.py --set tuning_s8.toml --mistakes

``--write-trust`` grades the blind sets and writes ``content/grader_trust.toml``, the
figures the interview drill and the quiz quote to a learner (``practice.grader_trust``).

``--mistakes`` lists every missed point and false credit with the answer (refused for a
blind set); ``--writer A`` keeps one writer's answers of a set written by several
(``tuning_s8.toml``: writer B was kept unread while writer A was studied).

``heldout_s5.toml`` was labelled twice, independently: the benchmark also prints how far
the second labeller agrees with the first, what a careful reader reaches on these labels.

Targets: precision >= 0.95, recall >= 0.9 overall; no swapped-relation or keyword-salad
answer above 25 % credit (also reported: those credited beyond the points they truly make,
since a swapped answer may make a point it does not swap). The last line is
``grading: precision P, recall R, swapped/salad above 25 %: N (M beyond their labels)``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from practice.grader_trust import TRUST_PATH, trust_sentence, trust_toml  # noqa: E402
from tests.practice.followup_eval.metrics import (  # noqa: E402
    SECOND_LABELS,
    blind_trust,
    counts,
    graded,
    kappa,
    labelled_counts,
    load,
    mistakes,
    over_credited,
    precision,
    recall,
    report,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="heldout_independent.toml", dest="name")
    parser.add_argument(
        "--mistakes",
        action="store_true",
        help="also list every missed or false credit (not for a blind set)",
    )
    parser.add_argument("--writer", help="only this writer's answers (a set with writers)")
    parser.add_argument(
        "--write-trust",
        action="store_true",
        help=f"grade the blind sets and write {TRUST_PATH.relative_to(ROOT)} (what pages quote)",
    )
    args = parser.parse_args()
    if args.write_trust:
        trust = blind_trust()
        TRUST_PATH.write_text(trust_toml(trust), encoding="utf-8")
        print(f"{TRUST_PATH.relative_to(ROOT)}: {trust_sentence(trust)}")
        return
    name, writer = args.name, args.writer
    if args.mistakes:
        print("\n".join(mistakes(name, writer)))
    start = time.perf_counter()
    print(report(name, writer))
    answers = load(name, writer)
    c = counts(answers)["all"]
    seconds = time.perf_counter() - start
    print(f"({len(answers)} answers graded twice in {seconds:.1f} s)")
    over = over_credited(answers)
    beyond = sum(credit > share for _, _, credit, share, _ in over)
    if name in SECOND_LABELS:
        second = labelled_counts(answers, load(SECOND_LABELS[name]))
        print(
            f"a second labeller against the first ({SECOND_LABELS[name]}): precision "
            f"{precision(second):.3f}, recall {recall(second):.3f}, kappa {kappa(second):.3f} "
            f"({second['fp'] + second['fn']} of {sum(second.values())} key points labelled apart)"
        )
        as_labels = [
            dict(a, points=[i + 1 for i, hit in enumerate(hits) if hit])
            for a, hits in graded(answers)
        ]
        for labels in (name, SECOND_LABELS[name]):
            mine = labelled_counts(load(labels), as_labels)
            print(f"the grader against {labels}: kappa {kappa(mine):.3f}")
    print(
        f"grading: precision {precision(c):.3f}, recall {recall(c):.3f}, "
        f"swapped/salad above 25 %: {len(over)} ({beyond} beyond their labels)"
    )


if __name__ == "__main__":
    main()
