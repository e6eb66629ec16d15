"""The lecturer's own questions: typed on the spot, or imported and exported as a question
set in the bank's TOML format (``content/questions.toml``, read by ``practice.bank``).

A set is ``[[question]]`` items of the bank's schema, of the kinds a lecturer writes on
the spot: ``choice`` and ``redflag`` (2 to 6 ``[[question.options]]`` with ``text``,
``why`` and ``correct = true`` on exactly one), and one kind the bank has not: ``number``,
a fixed number with a tolerance (``answer = 0.5``, ``tol = 0.01``; the bank's ``numeric``
draws fresh rewards instead). Beside the bank's rules, ``explanation``, ``why`` and
``topic`` may be left out (a question typed in class has none), and text is bounded and
plain: no HTML tag, no image, no control character; the page never renders it as HTML
either. A bad file is refused whole with a message naming its line; nothing changes.

The session keeps its set as TOML text in the store (``ClassStore.set_question_set``), so
every replica reads the same questions; rounds name them by id like bank questions.
"""

from __future__ import annotations

import functools
import json
import math
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from practice.drills import Drill
from practice.questions import TOPICS, Option, Question
from practice.store.class_rules import MAX_SET_CHARS
from practice.toml_guard import nesting_problem

KINDS = ("choice", "redflag", "number")
"""What a lecturer's set holds (``number`` is kept as a ``NumberQuestion``)."""
MIN_OPTIONS, MAX_OPTIONS = 2, 6
MAX_QUESTIONS = 100
MAX_PROMPT_CHARS = 1000
MAX_OPTION_CHARS = 300
MAX_NOTE_CHARS = 1500
"""An explanation or an option's why."""
MAX_NUMBER = 1e12
"""Answers and tolerances are finite and at most this large in size."""
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
"""The bank's id form (``practice.bank``)."""
TYPED_PREFIX = "own-"
_FIELDS = {
    "choice": {"id", "kind", "topic", "prompt", "explanation", "options"},
    "redflag": {"id", "kind", "topic", "prompt", "explanation", "options"},
    "number": {"id", "kind", "topic", "prompt", "explanation", "answer", "tol"},
}
_HTML = re.compile(r"<[A-Za-z!/?]")
_IMAGE = re.compile(r"!\[")
_TEX_LAYOUT = re.compile(
    r"\\(rule|[vh]rule|kern|mkern|mskip|hskip|[hv]space|raisebox|scalebox|fontsize|Huge|huge"
    r"|LARGE|Large|r?lap|llap|clap|math[rl]lap|href|url|includegraphics|html[A-Za-z]*|char"
    r"|[gex]?def|let|(?:re|provide)?newcommand)(?![A-Za-z])|\\\\\s*\["
)
"""TeX that draws outside its place or out of scale (a \\rule of 5000px blacked out the
projector and every phone), links, or defines macros; \\\\[5cm] is a line break's space."""
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_ITEM = re.compile(r"^\s*\[\[\s*question\s*\]\]")
_OPTION = re.compile(r"^\s*\[\[\s*question\.options\s*\]\]")


@dataclass(frozen=True)
class NumberQuestion(Question):
    """A lecturer's number question (kind ``numeric``, no drill): one right value."""

    value: float = 0.0
    tol: float = 0.0
    """Absolute tolerance: an answer within ``tol`` of ``value`` is right (> 0)."""


class SetProblem(ValueError):
    """A question or a set that cannot be used; ``str(err)`` names the line and the field."""


def number_drill(question: NumberQuestion) -> Drill:
    """The fixed "drill" a number question is graded with (``practice.grading.grade_drill``):
    no rewards and no worked solution, only the value and the tolerance."""
    return Drill(
        convention="",
        rewards=(),
        ask=0,
        expected=question.value,
        tol=question.tol,
        prompt=question.prompt,
        solution=(),
        name="the value",
        name_tex="x",
    )


def is_own(question: Question) -> bool:
    """Whether ``question`` is a lecturer's (a number question, or one from a set)."""
    return isinstance(question, NumberQuestion) or question.id.startswith(TYPED_PREFIX)


# --- checking one question --------------------------------------------------------------------


def _text(value, field: str, limit: int, *, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise SetProblem(f"field {field!r}: must be text.")
    text = value.strip()
    if required and not text:
        raise SetProblem(f"field {field!r}: must not be empty.")
    if len(text) > limit:
        raise SetProblem(
            f"field {field!r}: too long ({len(text):,} characters; at most {limit:,})."
        )
    if found := _HTML.search(text):
        tag = text[found.start() : found.start() + 12]
        raise SetProblem(f"field {field!r}: HTML is not allowed (found {tag!r}).")
    if _IMAGE.search(text):
        raise SetProblem(f"field {field!r}: images are not allowed.")
    if _CONTROL.search(text):
        raise SetProblem(f"field {field!r}: has a control character (or a broken one).")
    if found := _TEX_LAYOUT.search(text):
        raise SetProblem(f'field {field!r}: the TeX "{found.group(0)}" is not allowed here.')
    return text


def _number(value, field: str, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SetProblem(f"field {field!r}: must be a number, got {value!r}.")
    if not math.isfinite(value) or abs(value) > MAX_NUMBER:
        raise SetProblem(f"field {field!r}: must be a finite number of size at most 1e12.")
    if positive and value <= 0:
        raise SetProblem(f"field {field!r}: must be more than 0.")
    return float(value)


def _head(item: Mapping) -> dict:
    qid, kind, topic = item.get("id"), item.get("kind"), item.get("topic", "")
    if not isinstance(qid, str) or not ID_RE.match(qid):
        raise SetProblem(
            "field 'id': must be 1 to 40 characters of a-z, 0-9 and '-', starting with a "
            "letter or digit."
        )
    if kind not in KINDS:
        raise SetProblem(
            f"field 'kind': a lecturer's set holds {', '.join(KINDS)}; got {str(kind)[:20]!r} "
            "(ask the bank's other questions from the picker)."
        )
    if unknown := sorted(set(item) - _FIELDS[kind]):
        raise SetProblem(f"field {unknown[0][:40]!r}: is not a field of a {kind} question.")
    if topic != "" and topic not in TOPICS:
        raise SetProblem(f"field 'topic': must be one of {', '.join(TOPICS)} (or left out).")
    return {
        "id": qid,
        "kind": "numeric" if kind == "number" else kind,
        "topic": topic,
        "prompt": _text(item.get("prompt"), "prompt", MAX_PROMPT_CHARS),
        "explanation": _text(
            item.get("explanation"), "explanation", MAX_NOTE_CHARS, required=False
        ),
    }


def question_of(item) -> Question:
    """One ``[[question]]`` table of a set as a Question (a NumberQuestion for ``number``);
    SetProblem naming the field."""
    if not isinstance(item, dict):
        raise SetProblem("is not a table.")
    head = _head(item)
    if head["kind"] == "numeric":
        value = _number(item.get("answer"), "answer")
        tol = _number(item.get("tol"), "tol", positive=True)
        return NumberQuestion(**head, value=value, tol=tol)
    tables = item.get("options")
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise SetProblem("field 'options': must be a list of [[question.options]] tables.")
    if not MIN_OPTIONS <= len(tables) <= MAX_OPTIONS:
        raise SetProblem(f"field 'options': needs {MIN_OPTIONS} to {MAX_OPTIONS} options.")
    options, right = [], []
    for i, table in enumerate(tables):
        where = f"options[{i}]."
        if extra := sorted(set(table) - {"text", "why", "correct"}):
            raise SetProblem(f"field {where + extra[0][:40]!r}: is not a field of an option.")
        flag = table.get("correct", False)
        if not isinstance(flag, bool):
            raise SetProblem(f"field {where}correct: must be true or false.")
        right += [i] if flag else []
        text = _text(table.get("text"), where + "text", MAX_OPTION_CHARS)
        why = _text(table.get("why"), where + "why", MAX_NOTE_CHARS, required=False)
        options.append(Option(text, why))
    if len(right) != 1:
        raise SetProblem(f"field 'options': needs exactly one correct = true, has {len(right)}.")
    return Question(**head, options=tuple(options), answer=right[0])


def typed_choice(
    qid: str, prompt: str, options: Sequence[str], right: int, explanation: str = ""
) -> Question:
    """A choice question typed on the spot: the options that are not empty, ``right`` the
    index (into ``options``) of the right one; SetProblem in plain words."""
    kept = [(i, o) for i, o in enumerate(options) if isinstance(o, str) and o.strip()]
    if right not in [i for i, _ in kept]:
        raise SetProblem("the right option is empty: fill it in, or mark another one right.")
    tables = [{"text": o, "correct": i == right} for i, o in kept]
    return question_of(
        {
            "id": qid,
            "kind": "choice",
            "prompt": prompt,
            "explanation": explanation,
            "options": tables,
        }
    )


def typed_number(
    qid: str, prompt: str, value: float, tol: float, explanation: str = ""
) -> NumberQuestion:
    """A number question typed on the spot: right within ``tol`` of ``value``."""
    item = {"id": qid, "kind": "number", "prompt": prompt, "answer": value, "tol": tol}
    return question_of(item | {"explanation": explanation})


def next_id(taken: Iterable[str]) -> str:
    """``own-1``, ``own-2``, ...: the first typed-question id not in ``taken``."""
    taken = set(taken)
    return next(
        f"{TYPED_PREFIX}{n}" for n in range(1, len(taken) + 2) if f"{TYPED_PREFIX}{n}" not in taken
    )


# --- a set as TOML ----------------------------------------------------------------------------


def _lines(text: str, pattern: re.Pattern) -> list[int]:
    """1-based numbers of the lines matching ``pattern``."""
    return [n for n, line in enumerate(text.splitlines(), start=1) if pattern.match(line)]


def _line_of(text: str, number: int, problem: str) -> int:
    """The line a problem of item ``number`` (1-based) is on: its option's header, or the
    item's ``[[question]]`` line (the first line when the file has none)."""
    items = _lines(text, _ITEM)
    start = items[number - 1] if number <= len(items) else 1
    found = re.search(r"options\[(\d+)\]", problem)
    if found:
        end = items[number] if number < len(items) else math.inf
        headers = [n for n in _lines(text, _OPTION) if start < n < end]
        i = int(found.group(1))
        if i < len(headers):
            return headers[i]
    return start


def decode_set(data: bytes | str) -> str:
    """An uploaded file's text; SetProblem when it is too large or not UTF-8."""
    if len(data) > MAX_SET_CHARS:
        size = f"{len(data) / 1e6:.1f} MB" if len(data) >= 1e6 else f"{len(data) / 1e3:.0f} KB"
        raise SetProblem(
            f"The file is {size}: a question set is at most {MAX_SET_CHARS // 1000} KB."
        )
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise SetProblem(f"Line {line}: the file is not UTF-8 text.") from None


@functools.lru_cache(maxsize=64)
def parse_set(text: str) -> tuple[Question, ...]:
    """The questions of a set's TOML text, in file order; SetProblem naming the line, the
    question and the field of the first problem. An empty text is an empty set."""
    text = decode_set(text)
    if not text.strip():
        return ()
    if problem := nesting_problem(text):
        raise SetProblem(problem)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        found = re.search(r"line (\d+)", str(err))
        line = found.group(1) if found else "?"
        reason = re.sub(r"\s*\(at .*\)$", "", str(err))
        raise SetProblem(f"Line {line}: this is not valid TOML ({reason}).") from None
    if extra := sorted(set(data) - {"question"}):
        raise SetProblem(
            f"{extra[0][:40]!r} is not part of a question set: only [[question]] items."
        )
    items = data.get("question")
    if not isinstance(items, list) or not items:
        raise SetProblem("The file has no [[question]] items.")
    if len(items) > MAX_QUESTIONS:
        raise SetProblem(
            f"The file has {len(items)} questions: a set holds at most {MAX_QUESTIONS}."
        )
    questions, seen = [], set()
    for number, item in enumerate(items, start=1):
        try:
            question = question_of(item)
            if question.id in seen:
                raise SetProblem(f"field 'id': {question.id!r} is used twice.")
        except SetProblem as err:
            line = _line_of(text, number, str(err))
            raise SetProblem(f"Line {line} (question {number}): {err}") from None
        seen.add(question.id)
        questions.append(question)
    return tuple(questions)


def merged(kept: Sequence[Question], text: str, bank_ids: Iterable[str]) -> tuple[Question, ...]:
    """The session's set after importing ``text``: ``kept`` then the new questions. An id
    of the bank, or one kept with other content, is refused naming its line; a question
    kept already, unchanged, is not added twice."""
    added = parse_set(decode_set(text))
    bank_ids, by_id = set(bank_ids), {q.id: q for q in kept}
    out = list(kept)
    for number, question in enumerate(added, start=1):
        clash = question.id in bank_ids or by_id.get(question.id, question) != question
        if clash:
            line = _line_of(decode_set(text), number, "")
            where = "the bank" if question.id in bank_ids else "this session's set"
            raise SetProblem(
                f"Line {line} (question {number}): field 'id': {question.id!r} is already a "
                f"question of {where}: give it another id."
            )
        if question.id not in by_id:
            out.append(question)
            by_id[question.id] = question
    if len(out) > MAX_QUESTIONS:
        raise SetProblem(
            f"The session would hold {len(out)} own questions: at most {MAX_QUESTIONS}."
        )
    return tuple(out)


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's; control characters never get here)."""
    return json.dumps(text, ensure_ascii=False)


def _number_text(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def set_toml(questions: Iterable[Question]) -> str:
    """The questions as a set's TOML text (``parse_set`` reads it back unchanged)."""
    out = ["# A lecturer's question set for class mode, in the bank's format."]
    for q in questions:
        kind = "number" if isinstance(q, NumberQuestion) else q.kind
        out += ["", "[[question]]", f"id = {_string(q.id)}", f"kind = {_string(kind)}"]
        out += [f"topic = {_string(q.topic)}"] if q.topic else []
        out.append(f"prompt = {_string(q.prompt)}")
        out += [f"explanation = {_string(q.explanation)}"] if q.explanation else []
        if isinstance(q, NumberQuestion):
            out += [f"answer = {_number_text(q.value)}", f"tol = {_number_text(q.tol)}"]
        for i, option in enumerate(q.options):
            out += ["", "[[question.options]]", f"text = {_string(option.text)}"]
            out += [f"why = {_string(option.why)}"] if option.why else []
            out += ["correct = true"] if i == q.answer else []
    return "\n".join(out) + "\n"
