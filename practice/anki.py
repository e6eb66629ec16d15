"""The whole question bank as an Anki deck (``genanki``): ``build_deck() -> bytes`` (.apkg).

Stable across builds, so importing a newer deck updates the learner's cards instead of
adding copies: the deck and the two note types have fixed ids (``DECK_ID``,
``BASIC_MODEL_ID``, ``CLOZE_MODEL_ID``) and every note's GUID is
``genanki.guid_for(GUID_PREFIX, question id)``. Anki updates a note whose GUID it knows
when the incoming note is newer, so notes carry the build time (the file's bytes differ
between builds; the notes' ids and fields do not).

- blanks questions and the GRPO formula (``FORMULA_NOTE_ID``) are cloze cards, one
  deletion per blank;
- choice and redflag questions show their options (in an order seeded by the id, so the
  bank's order says nothing), the answer on the back with why;
- numeric drills are drawn once with ``DRILL_SEED``, with the worked solution;
- follow-ups show the model answer and its key points.

Math is Anki's MathJax: ``$...$`` becomes ``\\(...\\)`` and ``$$...$$`` ``\\[...\\]``; the rest
of the Markdown becomes a little HTML (code, bold, italics, line breaks), escaped.
"""

from __future__ import annotations

import html
import io
import itertools
import random
import re
import sqlite3
import tempfile
import time
import zipfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import genanki
import numpy as np

from content.citations import cite
from practice.anki_revlog import write_history
from practice.bank import load_bank
from practice.drills import make_drill
from practice.questions import TOPICS, Question
from practice.review_fit import OwnParameters
from practice.store.base import Attempt

DECK_ID = 1_734_500_915_001
BASIC_MODEL_ID = 1_734_500_915_002
CLOZE_MODEL_ID = 1_734_500_915_003
GUID_PREFIX = "grpo-advantage-lab"
DECK_NAME = "GRPO advantage lab"
FORMULA_NOTE_ID = "grpo-formula"
DRILL_SEED = 0
FORMULA_CLOZE = (
    r"\[A_i = \frac{R_i - {{c1::\operatorname{mean}(R_1, \dots, R_K)}} }"
    r"{ {{c2::\operatorname{std}(R_1, \dots, R_K)}} + \varepsilon}\]"
)
"""GRPO's advantage of answer i among the K answers to one prompt, as two deletions."""
_BLANK = r"\_\_\_"
_CSS = ".card { font-family: sans-serif; font-size: 18px; text-align: left; }"

BASIC_MODEL = genanki.Model(
    BASIC_MODEL_ID,
    "GRPO lab question",
    fields=[{"name": "Question"}, {"name": "Answer"}, {"name": "Topic"}, {"name": "Id"}],
    templates=[
        {
            "name": "Card 1",
            "qfmt": "{{Question}}",
            "afmt": '{{FrontSide}}<hr id="answer">{{Answer}}<p><small>{{Topic}}</small></p>',
        }
    ],
    css=_CSS,
)
CLOZE_MODEL = genanki.Model(
    CLOZE_MODEL_ID,
    "GRPO lab cloze",
    fields=[{"name": "Text"}, {"name": "Extra"}, {"name": "Topic"}, {"name": "Id"}],
    templates=[
        {
            "name": "Cloze",
            "qfmt": "{{cloze:Text}}",
            "afmt": "{{cloze:Text}}<br>{{Extra}}<p><small>{{Topic}}</small></p>",
        }
    ],
    css=_CSS,
    model_type=genanki.Model.CLOZE,
)

_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
_INLINE = [
    # a cited claim: [text](url "source · versions") becomes a link to the source
    (re.compile(r'\[([^\]]+)\]\((https://[^\s)]+)(?: "[^"]*")?\)'), r'<a href="\2">\1</a>'),
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*(.+?)\*\*"), r"<b>\1</b>"),
    (re.compile(r"(?<![\w*])\*([^*\n]+)\*(?!\w)"), r"<i>\1</i>"),
]


def _text_html(text: str) -> str:
    text = html.escape(text, quote=False)
    for pattern, replacement in _INLINE:
        text = pattern.sub(replacement, text)
    return text.replace("\n", "<br>")


def to_anki_html(markdown: str, math: Callable[[str], str] = lambda tex: tex) -> str:
    """The bank's Markdown as Anki HTML with MathJax delimiters, claims linked to their
    sources and quoted figures filled in; ``math`` may rewrite each formula's TeX first
    (the cloze deletions of blanks)."""
    markdown = cite(markdown)
    parts, end = [], 0
    for match in _MATH.finditer(markdown):
        parts.append(_text_html(markdown[end : match.start()]))
        display = match.group(1) is not None
        tex = html.escape(math(match.group(1) if display else match.group(2)), quote=False)
        parts.append(rf"\[{tex}\]" if display else rf"\({tex}\)")
        end = match.end()
    parts.append(_text_html(markdown[end:]))
    return "".join(parts)


def _cloze(number: int, answer: str) -> str:
    """One deletion inside MathJax; the space keeps ``}}`` of the TeX from ending it early."""
    answer = answer.replace("{", "(").replace("}", ")")
    return f"{{{{c{number}::\\text{{{answer}}} }}}}"


def blanks_text(question: Question) -> str:
    """A blanks question's prompt with its blanks, in order, as cloze deletions."""
    counter = itertools.count(1)

    def fill(tex: str) -> str:
        while _BLANK in tex:
            n = next(counter)
            answer = question.blanks[n - 1].answer if n <= len(question.blanks) else "?"
            tex = tex.replace(_BLANK, _cloze(n, answer), 1)
        return tex

    return to_anki_html(question.prompt, fill)


def shown_options(question: Question) -> list[int]:
    """Option indices in the order the card lists them: shuffled, seeded by the question id."""
    order = list(range(len(question.options)))
    random.Random(question.id).shuffle(order)
    return order


def _choice_fields(q: Question) -> tuple[str, str]:
    letters = "ABCDEFGH"
    shown = shown_options(q)
    items = "".join(f"<li>{to_anki_html(q.options[i].text)}</li>" for i in shown)
    ask = "Which one is wrong?" if q.kind == "redflag" else "Which one is right?"
    front = f'{to_anki_html(q.prompt)}<p>{ask}</p><ol type="A">{items}</ol>'
    letter = letters[shown.index(q.answer)]
    right = q.options[q.answer]
    back = f"<p><b>{letter}.</b> {to_anki_html(right.text)}</p><p>{to_anki_html(right.why)}</p>"
    return front, back


def _drill_fields(q: Question) -> tuple[str, str]:
    drill = make_drill(q.drill, np.random.default_rng(DRILL_SEED))
    lines = "".join(rf"\[{html.escape(line, quote=False)}\]" for line in drill.solution)
    return to_anki_html(
        drill.prompt
    ), f"<p>{html.escape(drill.name)} ≈ {drill.expected:.4f}</p>{lines}"


def _followup_fields(q: Question) -> tuple[str, str]:
    points = "".join(f"<li>{to_anki_html(p.text)}</li>" for p in q.key_points)
    return to_anki_html(q.prompt), f"{to_anki_html(q.model_answer)}<ul>{points}</ul>"


def note_for(question: Question) -> genanki.Note:
    """The question's note: cloze for blanks, question and answer for the other kinds."""
    topic, guid = TOPICS[question.topic], genanki.guid_for(GUID_PREFIX, question.id)
    explanation = to_anki_html(question.explanation)
    if question.kind == "blanks":
        fields = [blanks_text(question), explanation, topic, question.id]
        return genanki.Note(model=CLOZE_MODEL, fields=fields, guid=guid, tags=[question.topic])
    front, back = {
        "choice": _choice_fields,
        "redflag": _choice_fields,
        "numeric": _drill_fields,
        "followup": _followup_fields,
    }[question.kind](question)
    if explanation and question.kind != "followup":
        back += f"<p>{explanation}</p>"
    fields = [front, back, topic, question.id]
    return genanki.Note(model=BASIC_MODEL, fields=fields, guid=guid, tags=[question.topic])


def formula_note() -> genanki.Note:
    """GRPO's advantage with its mean and std as two cloze deletions."""
    extra = "Both statistics over the K rewards of the same prompt; ε keeps a tie finite."
    return genanki.Note(
        model=CLOZE_MODEL,
        fields=[FORMULA_CLOZE, extra, TOPICS["formula"], FORMULA_NOTE_ID],
        guid=genanki.guid_for(GUID_PREFIX, FORMULA_NOTE_ID),
        tags=["formula"],
    )


def build_deck(
    bank: list[Question] | None = None,
    *,
    now: float | None = None,
    attempts: Sequence[Attempt] = (),
    cards: Mapping[str, Mapping] | None = None,
    own: OwnParameters | None = None,
) -> bytes:
    """The .apkg file of the formula note and one note per bank question.

    ``now`` (Unix seconds, default the clock) stamps the notes, so a newer build wins.
    ``attempts`` (oldest first) and ``cards`` (question id -> FSRS state): a learner's
    history, written as Anki's revlog with each card's schedule (``practice.anki_revlog``);
    ``own``: the learner's kept FSRS fit, which scheduled their answers from its time on.
    """
    deck = genanki.Deck(DECK_ID, DECK_NAME)
    deck.add_note(formula_note())
    for question in bank if bank is not None else load_bank():
        deck.add_note(note_for(question))
    stamp = time.time() if now is None else now
    with tempfile.TemporaryDirectory() as folder:  # genanki writes a SQLite file first
        path = Path(folder) / "collection.anki2"
        db = sqlite3.connect(path)
        cursor = db.cursor()
        genanki.Package(deck).write_to_db(cursor, stamp, itertools.count(int(stamp * 1000)))
        write_history(cursor, attempts, cards or {}, own)
        db.commit()
        db.close()
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as apkg:
            apkg.write(path, "collection.anki2")
            apkg.writestr("media", "{}")
    return buffer.getvalue()
