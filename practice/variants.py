"""Parameterised question variants: the items of a certification attempt.

Contract: ``load_families`` reads ``content/variants.toml`` (one ``Family`` per item) and
draws and checks the first ``CHECKED_AT_LOAD`` variants of each, or raises a ValueError
naming the family and field. ``draw(family, seed, previous=...)`` makes one ``Variant``:
a ``practice.questions.Question`` (choice or numeric, id = the family's id) with fresh
numbers computed by ``grpo_core``, one of the family's wordings, options in their own
words, and for a numeric item its ``Drill``. The same (seed, previous) gives the same
variant on every server. With ``previous`` (the seed of the candidate's attempt before),
the variant has another wording and another model answer than that attempt's, so
answers collected on one attempt do not carry over.

Every variant is checked by the bank's own graders (``check_variant``): the model answer
of a choice passes ``grade_choice`` and no other option does, every option reads
differently; a drill's model answer (4 decimals) passes ``grade_drill``.
"""

from __future__ import annotations

import functools
import hashlib
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

import content
from practice.drills import Drill, make_drill
from practice.grading import grade_choice, grade_drill
from practice.questions import (
    DRILL_CONVENTIONS,
    LOSS_DRILL_TYPES,
    LOSS_QUANTITIES,
    REWARD_KINDS,
    TOPICS,
    DrillTemplate,
    Option,
    Question,
)
from practice.variant_numbers import GENERATORS

DEFAULT_FAMILIES = content.path("variants.toml")
CHECKED_AT_LOAD = 25
"""Variants of each family drawn and checked when the file is loaded."""
MIN_WORDINGS = 3
_MAX_REDRAWS = 200


@dataclass(frozen=True)
class Family:
    """One item of the certification attempt: how its variants are drawn and worded."""

    id: str
    topic: str
    kind: str
    """"choice" (numbers from ``generator``) or "numeric" (a drill of ``drill``)."""
    wordings: tuple[str, ...]
    explanation: str
    generator: str = ""
    why: tuple[tuple[str, str], ...] = ()
    """(option role, why that option is right or wrong); role "right" for the answer."""
    drill: DrillTemplate | None = None


@dataclass(frozen=True)
class Variant:
    question: Question
    drill: Drill | None
    wording: int
    """Index of the wording used (a retake uses another)."""

    @property
    def model_answer(self) -> str:
        """The right option's text, or the drill's value to 4 decimals."""
        if self.drill is not None:
            return f"{self.drill.expected:.4f}"
        return self.question.options[self.question.answer].text


# --- drawing and checking --------------------------------------------------------------------


def _rng(family: Family, seed: int, redraw: int) -> np.random.Generator:
    key = int.from_bytes(hashlib.sha256(family.id.encode()).digest()[:8], "big")
    return np.random.default_rng([seed, key, redraw])


def _draw_once(family: Family, seed: int, redraw: int) -> Variant:
    rng = _rng(family, seed, redraw)
    wording = int(rng.integers(len(family.wordings)))
    if family.kind == "numeric":
        template = family.drill
        if template.quantity == "advantage":
            template = replace(template, ask=int(rng.integers(1, template.min_group_size + 1)))
        drill = make_drill(template, rng)
        prompt = family.wordings[wording].format(**dict(drill.params))
        question = Question(
            family.id, "numeric", family.topic, prompt, family.explanation, drill=template
        )
        return Variant(question, replace(drill, prompt=prompt), wording)
    params, options, answer = GENERATORS[family.generator](rng)
    prompt = family.wordings[wording].format(**params)
    why = dict(family.why)
    opts = tuple(
        Option(text, why["right" if role == answer else role].format(**params))
        for role, text in options
    )
    index = [role for role, _ in options].index(answer)
    question = Question(
        family.id,
        "choice",
        family.topic,
        prompt,
        family.explanation.format(**params),
        options=opts,
        answer=index,
    )
    return Variant(question, None, wording)


def check_variant(variant: Variant) -> None:
    """ValueError unless the variant's model answer passes its own grader (and, for a
    choice, no other option does and every option reads differently)."""
    q = variant.question
    if variant.drill is not None:
        if not grade_drill(variant.drill, variant.model_answer).correct:
            raise ValueError(f"{q.id}: the drill's model answer fails its own grader.")
        return
    texts = [o.text for o in q.options]
    if len(set(texts)) != len(texts):
        raise ValueError(f"{q.id}: two options read the same ({texts}).")
    for i in range(len(q.options)):
        if grade_choice(q, i).correct != (i == q.answer):
            raise ValueError(f"{q.id}: option {i} is graded against the model answer.")


def _acceptable(variant: Variant, before: Variant | None) -> bool:
    try:
        check_variant(variant)
    except ValueError:
        return False
    if before is None:
        return True
    if variant.wording == before.wording:
        return False
    if variant.drill is not None:
        return abs(variant.drill.expected - before.drill.expected) > 2 * variant.drill.tol
    return variant.model_answer != before.model_answer


@functools.lru_cache(maxsize=8192)
def draw(family: Family, seed: int, *, previous: int | None = None) -> Variant:
    """The variant of ``family`` for the attempt seeded ``seed``: checked, and when
    ``previous`` (the seed of the attempt before) is given, worded differently and with
    another model answer than that attempt's variant."""
    before = draw(family, previous) if previous is not None else None
    for redraw in range(_MAX_REDRAWS):
        variant = _draw_once(family, seed, redraw)
        if _acceptable(variant, before):
            return variant
    raise ValueError(f"{family.id}: no acceptable variant in {_MAX_REDRAWS} draws.")


# --- the file --------------------------------------------------------------------------------

_FIELDS = {
    "choice": {"id", "topic", "kind", "generator", "wordings", "explanation", "why"},
    "numeric": {
        "id",
        "topic",
        "kind",
        "convention",
        "k",
        "rewards",
        "tol",
        "wordings",
        "explanation",
        "quantity",
    },
}


def load_families(path: str | Path | None = None) -> tuple[Family, ...]:
    """Every family of ``path`` (default content/variants.toml), checked: known fields,
    topic, generator or drill, at least ``MIN_WORDINGS`` wordings, and the first
    ``CHECKED_AT_LOAD`` variants drawn and graded. ValueError naming family and field."""
    path = Path(path) if path is not None else DEFAULT_FAMILIES
    try:
        items = tomllib.loads(path.read_text(encoding="utf-8")).get("family")
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{path} is not valid TOML: {err}") from None
    if not isinstance(items, list) or not items:
        raise ValueError(f"{path} has no [[family]] items.")
    families, seen = [], set()
    for number, item in enumerate(items, start=1):
        family = _family(item, f"family {number} ({item.get('id')!r})")
        if family.id in seen:
            raise ValueError(f"family {number}: field 'id': {family.id!r} is used twice.")
        seen.add(family.id)
        for seed in range(CHECKED_AT_LOAD):
            try:
                draw(family, seed, previous=seed + 1)
            except (ValueError, KeyError, IndexError) as err:
                raise ValueError(f"family {number} ({family.id!r}): seed {seed}: {err}") from None
        families.append(family)
    return tuple(families)


def _family(item: dict, name: str) -> Family:
    def fail(field_name: str, problem: str):
        raise ValueError(f"{name}: field {field_name!r}: {problem}")

    kind = item.get("kind")
    if kind not in _FIELDS:
        fail("kind", "must be choice or numeric.")
    extra = sorted(set(item) - _FIELDS[kind])
    if extra:
        fail(extra[0], f"is not a field of a {kind} family.")
    if not isinstance(item.get("id"), str) or not item["id"].startswith("v-"):
        fail("id", "must be text starting with 'v-'.")
    if item.get("topic") not in TOPICS:
        fail("topic", f"must be one of {', '.join(TOPICS)}.")
    wordings = item.get("wordings")
    if not isinstance(wordings, list) or len(wordings) < MIN_WORDINGS:
        fail("wordings", f"needs at least {MIN_WORDINGS} wordings.")
    if not all(isinstance(w, str) and w.strip() for w in wordings):
        fail("wordings", "every wording must be non-empty text.")
    if not isinstance(item.get("explanation"), str):
        fail("explanation", "must be text.")
    common = {
        "id": item["id"],
        "topic": item["topic"],
        "kind": kind,
        "wordings": tuple(w.strip() for w in wordings),
        "explanation": item["explanation"].strip(),
    }
    if kind == "choice":
        if item.get("generator") not in GENERATORS:
            fail("generator", f"must be one of {', '.join(GENERATORS)}.")
        why = item.get("why")
        if not isinstance(why, dict) or "right" not in why:
            fail("why", "needs a table of option roles with at least 'right'.")
        return Family(**common, generator=item["generator"], why=tuple(sorted(why.items())))
    sizes = item.get("k")
    quantity = item.get("quantity", "advantage")
    if quantity != "advantage":
        if quantity not in LOSS_QUANTITIES:
            fail("quantity", f"must be advantage or one of {', '.join(LOSS_QUANTITIES)}.")
        if item.get("convention") not in LOSS_DRILL_TYPES:
            fail("convention", f"a loss drill's must be one of {', '.join(LOSS_DRILL_TYPES)}.")
        if "rewards" in item:
            fail("rewards", "is not a field of a loss drill.")
        if not (isinstance(sizes, list) and len(sizes) == 2 and 2 <= sizes[0] <= sizes[1] <= 5):
            fail("k", "must be [k_min, k_max] with 2 <= k_min <= k_max <= 5.")
        tol = item.get("tol", 0.01)
        template = DrillTemplate(item["convention"], sizes[0], sizes[1], "", 1, tol, quantity)
        return Family(**common, drill=template)
    if item.get("convention") not in DRILL_CONVENTIONS:
        fail("convention", f"must be one of {', '.join(DRILL_CONVENTIONS)}.")
    if item.get("rewards") not in REWARD_KINDS or item.get("rewards") == "tie":
        fail("rewards", "must be binary or continuous.")
    if not (isinstance(sizes, list) and len(sizes) == 2 and 2 <= sizes[0] <= sizes[1] <= 16):
        fail("k", "must be [k_min, k_max] with 2 <= k_min <= k_max <= 16.")
    tol = item.get("tol", 0.01)
    template = DrillTemplate(item["convention"], sizes[0], sizes[1], item["rewards"], 1, tol)
    return Family(**common, drill=template)
