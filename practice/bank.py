"""The question bank: ``load_bank`` reads ``content/questions.toml`` into ``Question`` records.

Contract: the bank comes back in file order, or a ValueError names the item (its number
and id) and the field at fault: an unknown kind or topic, a duplicate id, a missing
explanation, no or several correct options, a drill that cannot be drawn, a field nobody
reads, a blank whose model answer fails its own grader, or a follow-up whose model answer
does not earn every one of its key points. Nothing else is checked
later, so every page can trust a loaded bank.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path

import content
from practice.answer_text import normalise_answer
from practice.followup import WITHIN, match_points
from practice.grading import grade_blank
from practice.questions import (
    BLANK_GRADERS,
    DRILL_CONVENTIONS,
    KINDS,
    LOSS_DRILL_TYPES,
    LOSS_QUANTITIES,
    MAX_DRILL_GROUP_SIZE,
    MAX_LOSS_DRILL_ANSWERS,
    REWARD_KINDS,
    TOPICS,
    Blank,
    DrillTemplate,
    KeyPoint,
    Option,
    Question,
)

DEFAULT_BANK = content.path("questions.toml")

_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
_COMMON = {"id", "kind", "topic", "prompt", "explanation"}
_FIELDS = {
    "blanks": _COMMON | {"blanks"},
    "choice": _COMMON | {"options"},
    "redflag": _COMMON | {"options"},
    "numeric": _COMMON | {"drill"},
    "followup": _COMMON | {"model_answer", "points"},
}


def load_bank(path: str | Path | None = None) -> list[Question]:
    """Every question of the bank at ``path`` (default ``content/questions.toml``), in file order.

    ValueError naming the item and the field for anything malformed: unknown
    kind or topic, a duplicate id, a missing explanation, no or several
    correct options, a drill that cannot be drawn, a field nobody reads.

    A text read before is not checked again: checking grades every follow-up's model
    answer (a tenth of a second), and test modules and pages each load the bank. The list
    is the caller's own.
    """
    path = Path(path) if path is not None else DEFAULT_BANK
    return list(_checked_bank(path.read_text(encoding="utf-8"), str(path)))


@functools.lru_cache(maxsize=8)
def _checked_bank(text: str, path: str) -> tuple[Question, ...]:
    """``load_bank``'s parsing and checks of ``text`` (read from ``path``, named in errors),
    once per text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{path} is not valid TOML: {err}") from None
    items = data.get("question")
    if not isinstance(items, list) or not items:
        raise ValueError(f"{path} has no [[question]] items.")
    questions: list[Question] = []
    seen: set[str] = set()
    for number, item in enumerate(items, start=1):
        question = _question(item, number)
        if question.id in seen:
            raise ValueError(f"question {number}: field 'id': {question.id!r} is used twice.")
        seen.add(question.id)
        questions.append(question)
    return tuple(questions)


class _Item:
    """Reads the fields of one TOML item, naming it in every error."""

    def __init__(self, item: object, number: int) -> None:
        if not isinstance(item, dict):
            raise ValueError(f"question {number}: is not a table.")
        self.item = item
        self.name = f"question {number}"

    def fail(self, field_name: str, problem: str):
        raise ValueError(f"{self.name}: field {field_name!r}: {problem}")

    def text(self, table: Mapping, key: str, where: str = "", *, required: bool = True) -> str:
        value = table.get(key, "")
        if not isinstance(value, str) or (required and not value.strip()):
            self.fail(where + key, "must be a non-empty string.")
        return value.strip()

    def table_list(self, key: str) -> list[dict]:
        value = self.item.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
            self.fail(key, "must be a non-empty list of tables.")
        return value

    def text_list(self, table: Mapping, key: str, where: str = "") -> tuple[str, ...]:
        value = table.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            self.fail(where + key, "must be a non-empty list of strings.")
        if not all(v.strip() for v in value):
            self.fail(where + key, "has an empty string.")
        return tuple(v.strip() for v in value)

    def integer(self, table: Mapping, key: str, where: str = "") -> int:
        value = table.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(where + key, f"must be a whole number, got {value!r}.")
        return value


def _question(raw: object, number: int) -> Question:
    item = _Item(raw, number)
    qid = item.item.get("id")
    if not isinstance(qid, str) or not _ID_RE.match(qid):
        item.fail(
            "id", "must be 1 to 40 characters of a-z, 0-9 and '-', starting with a letter or digit."
        )
    item.name = f"question {number} ({qid!r})"
    kind = item.item.get("kind")
    if kind not in KINDS:
        item.fail("kind", f"must be one of {', '.join(KINDS)}; got {kind!r}.")
    unknown = sorted(set(item.item) - _FIELDS[kind])
    if unknown:
        item.fail(unknown[0], f"is not a field of a {kind} question.")
    topic = item.item.get("topic")
    if topic not in TOPICS:
        item.fail("topic", f"must be one of {', '.join(TOPICS)}; got {topic!r}.")
    common = {
        "id": qid,
        "kind": kind,
        "topic": topic,
        "prompt": item.text(item.item, "prompt"),
        "explanation": item.text(item.item, "explanation", required=kind != "followup"),
    }
    if kind in ("choice", "redflag"):
        options, answer = _options(item)
        return Question(**common, options=options, answer=answer)
    if kind == "blanks":
        return Question(**common, blanks=_blanks(item))
    if kind == "numeric":
        return Question(**common, drill=_drill_template(item))
    model_answer = item.text(item.item, "model_answer")
    points = _key_points(item)
    for i, made in enumerate(match_points(points, model_answer)):
        if not made.hit:
            item.fail(f"points[{i}].needs", "the model answer does not earn this key point.")
    return Question(**common, model_answer=model_answer, key_points=points)


def _key_points(item: _Item) -> tuple[KeyPoint, ...]:
    """The [[question.points]] of a follow-up: text, needs, or_needs, within, actor,
    rivals, or_actor, negated, unless."""
    points = []
    for i, table in enumerate(item.table_list("points")):
        where = f"points[{i}]."
        extra = sorted(set(table) - set(_POINT_FIELDS))
        if extra:
            item.fail(
                where + extra[0], f"is not a field of a key point ({', '.join(_POINT_FIELDS)})."
            )
        actor = _phrasings(item, table, "actor", where)
        rivals = _phrasings(item, table, "rivals", where)
        or_actor = _phrasings(item, table, "or_actor", where)
        negated = table.get("negated", False)
        if not isinstance(negated, bool):
            item.fail(where + "negated", "must be true or false.")
        least = 1 if actor or negated else 2
        needs = _concepts(item, table.get("needs"), where + "needs", least)
        or_needs = (
            _concepts(item, table["or_needs"], where + "or_needs", least)
            if "or_needs" in table
            else ()
        )
        within = table.get("within", "sentence")
        if within not in WITHIN:
            item.fail(where + "within", f"must be one of {', '.join(WITHIN)}.")
        text = item.text(table, "text", where)
        unless = _phrasings(item, table, "unless", where)
        points.append(
            KeyPoint(text, needs, or_needs, within, actor, rivals, negated, or_actor, unless)
        )
    return tuple(points)


_POINT_FIELDS = (
    *("text", "needs", "or_needs", "within", "actor", "rivals", "or_actor", "negated"),
    "unless",
)


def _phrasings(item: _Item, table: Mapping, key: str, where: str) -> tuple[str, ...]:
    """An optional list of lower-case phrasings (actor, rivals); () when absent."""
    if key not in table:
        return ()
    return _concepts(item, [table[key], table[key]], where + key, 1)[0]


def _concepts(item: _Item, value, where: str, least: int = 2) -> tuple[tuple[str, ...], ...]:
    """``least`` or more concept groups, each a non-empty list of lower-case phrasings."""
    if not isinstance(value, list) or len(value) < least:
        item.fail(
            where,
            f"must list at least {'two concept groups' if least > 1 else 'one concept group'}: "
            "a point relates concepts (an actor, or a denial, counts as one).",
        )
    groups = []
    for j, group in enumerate(value):
        if not isinstance(group, list) or not group or not all(isinstance(p, str) for p in group):
            item.fail(f"{where}[{j}]", "must be a non-empty list of phrasings.")
        if not all(p.strip() and p == p.lower() for p in group):
            item.fail(f"{where}[{j}]", "phrasings must be non-empty and lower case.")
        groups.append(tuple(p.strip() for p in group))
    return tuple(groups)


def _options(item: _Item) -> tuple[tuple[Option, ...], int]:
    tables = item.table_list("options")
    if len(tables) < 2:
        item.fail("options", "needs at least 2 options.")
    options, correct = [], []
    for i, table in enumerate(tables):
        where = f"options[{i}]."
        extra = sorted(set(table) - {"text", "why", "correct"})
        if extra:
            item.fail(where + extra[0], "is not a field of an option (text, why, correct).")
        flag = table.get("correct", False)
        if not isinstance(flag, bool):
            item.fail(where + "correct", "must be true or false.")
        if flag:
            correct.append(i)
        options.append(
            Option(text=item.text(table, "text", where), why=item.text(table, "why", where))
        )
    if len(correct) != 1:
        item.fail("options", f"needs exactly one option with correct = true, has {len(correct)}.")
    return tuple(options), correct[0]


def _blanks(item: _Item) -> tuple[Blank, ...]:
    blanks = []
    for i, table in enumerate(item.table_list("blanks")):
        where = f"blanks[{i}]."
        extra = sorted(set(table) - {"label", "answer", "grader", "accepted", "mistakes"})
        if extra:
            item.fail(where + extra[0], "is not a field of a blank.")
        grader = table.get("grader")
        if grader is not None and grader not in BLANK_GRADERS:
            item.fail(where + "grader", f"must be one of {', '.join(BLANK_GRADERS)}.")
        if (grader is None) == ("accepted" not in table):
            item.fail(where + "accepted", "give either a grader or a list of accepted answers.")
        accepted = ()
        if grader is None:
            accepted = _normalised(
                item, item.text_list(table, "accepted", where), where + "accepted"
            )
        mistakes = []
        for j, m in enumerate(table.get("mistakes", [])):
            at = f"{where}mistakes[{j}]."
            if not isinstance(m, dict):
                item.fail(at[:-1], "must be a table with answers and feedback.")
            answers = _normalised(item, item.text_list(m, "answers", at), at + "answers")
            mistakes.append((answers, item.text(m, "feedback", at)))
        blank = Blank(
            label=item.text(table, "label", where),
            answer=item.text(table, "answer", where),
            grader=grader,
            accepted=accepted,
            mistakes=tuple(mistakes),
        )
        if not grade_blank(blank, blank.answer).correct:
            item.fail(where + "answer", "the model answer does not pass its own grader.")
        blanks.append(blank)
    return tuple(blanks)


def _normalised(item: _Item, answers: tuple[str, ...], where: str) -> tuple[str, ...]:
    out = []
    for a in answers:
        n = normalise_answer(a)
        if not n:
            item.fail(where, f"an answer normalises to nothing (too long or empty): {a!r}.")
        out.append(n)
    return tuple(out)


def _drill_template(item: _Item) -> DrillTemplate:
    table = item.item.get("drill")
    if not isinstance(table, dict):
        item.fail("drill", "must be a table (convention, k, rewards, ask, tol).")
    quantity = table.get("quantity", "advantage")
    if quantity != "advantage":
        return _loss_drill_template(item, table, quantity)
    extra = sorted(set(table) - {"convention", "k", "rewards", "ask", "tol", "quantity"})
    if extra:
        item.fail("drill." + extra[0], "is not a field of a drill.")
    convention = table.get("convention")
    if convention not in DRILL_CONVENTIONS:
        item.fail("drill.convention", f"must be one of {', '.join(DRILL_CONVENTIONS)}.")
    sizes = _group_sizes(item, table, MAX_DRILL_GROUP_SIZE)
    rewards = table.get("rewards")
    if rewards not in REWARD_KINDS:
        item.fail("drill.rewards", f"must be one of {', '.join(REWARD_KINDS)}.")
    ask = item.integer(table, "ask", "drill.")
    if not 1 <= ask <= sizes[0]:
        item.fail("drill.ask", f"must be between 1 and k_min = {sizes[0]}.")
    return DrillTemplate(convention, sizes[0], sizes[1], rewards, ask, _tol(item, table))


def _loss_drill_template(item: _Item, table: dict, quantity) -> DrillTemplate:
    """A policy-loss drill: quantity, convention (its loss_type, default dapo), k, tol."""
    if quantity not in LOSS_QUANTITIES:
        item.fail("drill.quantity", f"must be advantage or one of {', '.join(LOSS_QUANTITIES)}.")
    extra = sorted(set(table) - {"quantity", "convention", "k", "tol"})
    if extra:
        item.fail("drill." + extra[0], "is not a field of a loss drill.")
    loss_type = table.get("convention", "dapo")
    if loss_type not in LOSS_DRILL_TYPES:
        item.fail("drill.convention", f"a loss drill's is one of {', '.join(LOSS_DRILL_TYPES)}.")
    table = {"k": [2, 4]} | table
    sizes = _group_sizes(item, table, MAX_LOSS_DRILL_ANSWERS)
    return DrillTemplate(loss_type, sizes[0], sizes[1], "", 1, _tol(item, table), quantity)


def _group_sizes(item: _Item, table: dict, largest: int) -> list[int]:
    sizes = table.get("k")  # [smallest, largest] group size
    if (
        not isinstance(sizes, list)
        or len(sizes) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in sizes)
        or not 2 <= sizes[0] <= sizes[1] <= largest
    ):
        item.fail("drill.k", f"must be [k_min, k_max] with 2 <= k_min <= k_max <= {largest}.")
    return sizes


def _tol(item: _Item, table: dict) -> float:
    tol = table.get("tol", 0.01)
    if not isinstance(tol, (int, float)) or isinstance(tol, bool) or not 0 < tol <= 1:
        item.fail("drill.tol", "must be a number in (0, 1].")
    return float(tol)
