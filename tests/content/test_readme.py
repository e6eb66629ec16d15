"""README: the counts it states are the bank's and the certification's own."""

import re
from pathlib import Path

from practice.bank import load_bank
from practice.variants import load_families

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_quiz_row_states_the_banks_question_count_and_the_certifications_items():
    text = README.read_text(encoding="utf-8")
    questions = re.search(r"\*\*Practice\*\*: (\d+) questions", text)
    items = re.search(r"\*\*Certification\*\*: (\d+) items", text)
    assert questions and int(questions[1]) == len(load_bank())
    assert items and int(items[1]) == len(load_families())
