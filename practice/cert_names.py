"""The name on a certificate: ``check_name`` normalises it and refuses what could deceive.

Contract: a name is NFKC-normalised (so full-width letters, ligatures and compatibility
forms become their plain letters) and stripped; inner runs of spaces become one space.
Refused, with a ValueError in plain words naming the character (U+XXXX):
- control, format (Cf: zero-width spaces and joiners, bidi marks, embeddings, overrides
  and isolates, soft hyphens), surrogate, private-use, unassigned and line or paragraph
  separator characters; a zero-width joiner between two symbols (an emoji sequence such
  as "👩‍🔬") is the one format character kept;
- a word that mixes scripts with a look-alike letter ("Раypal" with a Cyrillic Р): the
  scripts and look-alikes come from ``confusable_homoglyphs`` (Unicode's Scripts.txt and
  confusables.txt; Python's ``unicodedata`` has no script property). Words of different
  scripts side by side ("Ольга Smith") are fine, and so are the scripts one word of a
  Japanese, Chinese or Korean name mixes (Han with Hiragana, Katakana, Bopomofo, Hangul).

Markup is allowed and kept as typed: a name is text, shown escaped once wherever it
appears. ``signed_name`` is the light check ``verify`` makes of a name it signed.
"""

from __future__ import annotations

import unicodedata

from confusable_homoglyphs import categories, confusables

MAX_NAME_CHARS = 80
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_ZWJ = "\u200d"
_NEUTRAL = {"COMMON", "INHERITED"}
_CJK = {"HAN", "HIRAGANA", "KATAKANA", "BOPOMOFO", "HANGUL"}


def check_name(name) -> str:
    """The name as it goes on a certificate: NFKC, stripped, single-spaced; ValueError if
    unfit (empty, over ``MAX_NAME_CHARS``, an invisible or control character, or a word
    mixing scripts with look-alike letters)."""
    if not isinstance(name, str):
        raise ValueError(f"the name must be text, got {type(name).__name__}.")
    clean = unicodedata.normalize("NFKC", name).strip()
    _refuse_invisible(clean)
    clean = " ".join(part for part in clean.split(" ") if part)
    if not clean:
        raise ValueError("the name is empty: type the name to put on the certificate.")
    if len(clean) > MAX_NAME_CHARS:
        raise ValueError(f"the name is {len(clean)} characters long; at most {MAX_NAME_CHARS} fit.")
    for word in clean.split(" "):
        if _mixes_lookalikes(word):
            raise ValueError(
                f"the word {word!r} mixes letters of different alphabets that look alike "
                "(say a Cyrillic or Greek letter among Latin ones); type it in one alphabet."
            )
    return clean


def signed_name(name) -> str:
    """A name read back from a signed certificate: text of 1 to ``MAX_NAME_CHARS``
    characters (it was checked when issued; names issued under older rules still read)."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME_CHARS:
        raise ValueError("the certificate's name is not text of a fitting length.")
    return name


def _refuse_invisible(text: str) -> None:
    for i, c in enumerate(text):
        if unicodedata.category(c) not in _REFUSED:
            continue
        if c == _ZWJ and 0 < i < len(text) - 1 and _symbol(text[i - 1]) and _symbol(text[i + 1]):
            continue
        what = unicodedata.name(c, "an unassigned or private character")
        raise ValueError(
            f"the name contains an invisible or control character (U+{ord(c):04X}, "
            f"{what.lower()}); type it as plain text."
        )


def _symbol(c: str) -> bool:
    return unicodedata.category(c) == "So"


def _scripts(word: str) -> set[str]:
    return {categories.alias(c) for c in word} - _NEUTRAL


def _mixes_lookalikes(word: str) -> bool:
    """The word mixes scripts (other than the CJK ones a name may mix) and one of its
    letters is a look-alike of a letter in another of its scripts."""
    scripts = _scripts(word)
    if len(scripts) < 2 or scripts <= _CJK:
        return False
    return any(confusables.is_confusable(word, preferred_aliases=[s]) for s in scripts)
