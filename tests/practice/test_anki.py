"""The Anki deck: read from the notes inside the .apkg (a zip holding the SQLite
``collection.anki2``), since the file's bytes carry the build time."""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile

import pytest

from content import citations
from practice.anki import (
    BASIC_MODEL_ID,
    CLOZE_MODEL_ID,
    DECK_ID,
    FORMULA_NOTE_ID,
    build_deck,
    shown_options,
    to_anki_html,
)
from practice.bank import load_bank

FIELD_SEP = "\x1f"


def notes(apkg: bytes, tmp_path) -> dict[str, dict]:
    """Id field -> {guid, model, fields, tags, mod} of every note in the deck."""
    with zipfile.ZipFile(io.BytesIO(apkg)) as z:
        assert set(z.namelist()) == {"collection.anki2", "media"}
        path = tmp_path / "collection.anki2"
        path.write_bytes(z.read("collection.anki2"))
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT guid, mid, flds, tags, mod FROM notes").fetchall()
        decks = json.loads(db.execute("SELECT decks FROM col").fetchone()[0])
        models = json.loads(db.execute("SELECT models FROM col").fetchone()[0])
    assert str(DECK_ID) in decks and {str(BASIC_MODEL_ID), str(CLOZE_MODEL_ID)} <= set(models)
    found = {}
    for guid, mid, flds, tags, mod in rows:
        fields = flds.split(FIELD_SEP)
        found[fields[-1]] = {"guid": guid, "model": mid, "fields": fields, "tags": tags.split(),
                             "mod": mod}  # fmt: skip
    return found


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory):
    first = build_deck(now=1_800_000_000.0)
    second = build_deck(now=1_800_086_400.0)
    return (
        notes(first, tmp_path_factory.mktemp("a")),
        notes(second, tmp_path_factory.mktemp("b")),
    )


def test_every_question_is_a_note_and_the_formula_too(two_builds):
    found, _ = two_builds
    bank = load_bank()
    assert set(found) == {q.id for q in bank} | {FORMULA_NOTE_ID}
    for q in bank:
        expected = CLOZE_MODEL_ID if q.kind == "blanks" else BASIC_MODEL_ID
        assert found[q.id]["model"] == expected, q.id
        assert found[q.id]["tags"] == [q.topic]


def test_guids_and_fields_are_stable_across_builds(two_builds):
    first, second = two_builds
    assert {k: v["guid"] for k, v in first.items()} == {k: v["guid"] for k, v in second.items()}
    assert len({v["guid"] for v in first.values()}) == len(first), "one GUID a note"
    assert {k: v["fields"] for k, v in first.items()} == {k: v["fields"] for k, v in second.items()}
    assert all(second[k]["mod"] > first[k]["mod"] for k in first), "a newer build is newer"


def test_the_formula_and_blanks_are_cloze_deletions_in_mathjax(two_builds):
    found, _ = two_builds
    formula = found[FORMULA_NOTE_ID]["fields"][0]
    assert formula.startswith(r"\[") and formula.endswith(r"\]")
    assert r"{{c1::\operatorname{mean}" in formula and r"{{c2::\operatorname{std}" in formula
    for q in load_bank():
        if q.kind == "blanks":
            text = found[q.id]["fields"][0]
            for n in range(1, len(q.blanks) + 1):
                assert f"{{{{c{n}::" in text, (q.id, n)
            assert r"\_\_\_" not in text and "$" not in text


def test_math_becomes_anki_mathjax_and_markdown_is_escaped_html():
    assert to_anki_html("a $x<1$ and $$y$$") == r"a \(x&lt;1\) and \[y\]"
    assert to_anki_html("`R` **b** <script>") == "<code>R</code> <b>b</b> &lt;script&gt;"
    rloo = citations.claims()["rloo"]["url"]
    assert to_anki_html("[RLOO](claim:rloo)\nnext") == f'<a href="{rloo}">RLOO</a><br>next'
    assert to_anki_html("[x](claim:no-such-claim) {{worked.trl.correct}}") == (
        "x " + citations.fill("{{worked.trl.correct}}")
    )
    for q in load_bank():
        assert "$" not in to_anki_html(q.prompt), q.id


def test_choice_cards_show_the_answer_at_no_fixed_place(two_builds):
    found, _ = two_builds
    choices = [q for q in load_bank() if q.kind in ("choice", "redflag")]
    places = {shown_options(q).index(q.answer) for q in choices}
    assert len(places) > 1, "the right option is not always first"
    q = choices[0]
    letter = "ABCDEFGH"[shown_options(q).index(q.answer)]
    assert found[q.id]["fields"][1].startswith(f"<p><b>{letter}.</b>")
