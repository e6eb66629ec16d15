"""grpo_core.log_text: which cells look like HTML, and how a message quotes a cell."""

import pandas as pd

from grpo_core.log_text import excerpt, suspicious_text


def test_an_excerpt_is_quoted_and_cut_with_an_ellipsis():
    assert excerpt("short") == "'short'"
    assert excerpt("x" * 50, width=10) == repr("x" * 9 + "…")


def test_html_that_runs_is_named_by_row_and_reasoning_tags_are_not():
    frame = pd.DataFrame(
        {
            "prompt": ["<think>a</think>", "=1+1", "+2", "<answer>4</answer>"],
            "completion": ["ok", "<IMG src=x onerror=alert(1)>", "<b>bold</b>", "<svg/onload=x>"],
        }
    )
    notes = suspicious_text(frame)
    assert [n.split(":")[0] for n in notes] == [
        "Row 2, column completion",
        "Row 4, column completion",
    ]
    assert all("shown as plain text and never run" in n for n in notes)


def test_at_most_limit_cells_a_column_are_named():
    frame = pd.DataFrame({"completion": ["<script>x</script>"] * 5})
    assert len(suspicious_text(frame, limit=3)) == 3
