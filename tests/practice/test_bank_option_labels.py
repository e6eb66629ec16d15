"""The bank's options are radio labels: each needs words outside its formulas.

A radio button's accessible name is its label's text. KaTeX draws a formula as MathML
(``<math>``, which axe-core counts as embedded content, not text) beside an aria-hidden
HTML copy, so an option that is only a formula gives its radio button no name: the
browser sweep's axe check failed with "Form elements must have labels" whenever a random
quiz opened on such a question. This checks every option, not only the one a sweep opens.
"""

import re

from practice.bank import load_bank

FORMULA = re.compile(r"\$\$.*?\$\$|\$.*?\$", re.DOTALL)


def words_outside_formulas(text: str) -> str:
    return FORMULA.sub(" ", text).strip()


def test_every_option_has_words_outside_its_formulas():
    bare = [
        (q.id, o.text)
        for q in load_bank()
        if q.kind in ("choice", "redflag")
        for o in q.options
        if not re.search(r"\w", words_outside_formulas(o.text))
    ]
    assert not bare, bare


def test_a_formula_alone_is_caught():
    assert not re.search(r"\w", words_outside_formulas(r"$\sqrt{p(1-p)}$"))
    assert words_outside_formulas(r"The std is $\sqrt{p}$") == "The std is"
