"""The rule grader of an earlier commit on the verifier's pairs: each writer's answers graded
by the rules as they were before anyone read that writer (an honest "unseen writer" baseline,
since today's rules were tuned on every non-blind set).

    git archive COMMIT practice content grpo_core | tar -x -C DIR
    .venv/bin/python bench/verifier_rules_then.py DIR /tmp/verifier/pairs.json WRITER... > OUT.json

Prints {"<writer>|<question>|<point>|<text>": hit} for the pairs of the writers named.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

if __name__ == "__main__":
    old, pairs_path, *writers = sys.argv[1:]
    sys.path.insert(0, old)
    from practice.grading import grade_followup

    out, cache = {}, {}
    for r in json.loads(Path(pairs_path).read_text(encoding="utf-8")):
        if r["writer"] not in writers:
            continue
        key = (r["question"], r["text"])
        if key not in cache:
            cache[key] = grade_followup(r["question"], r["text"]).hits
        hits = cache[key]
        out[f"{r['writer']}|{r['question']}|{r['point']}|{r['text']}"] = (
            bool(hits[r["point"]]) if r["point"] < len(hits) else False
        )
    print(json.dumps(out))
