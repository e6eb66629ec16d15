"""Students' nicknames in a class session: how two are compared, which are refused, and the
label a student is shown as. Both store backends call these inside their join."""

from __future__ import annotations

import re
from collections.abc import Callable

from practice.cert_names import check_name
from practice.store.base import NicknameTaken, TextRefused

_DEFAULT_LABEL = re.compile(r"^student\s*#?\s*\d+$")


def nickname_key(nickname: str) -> str:
    """The form two nicknames are compared in: case-folded, spaces collapsed."""
    return " ".join(nickname.split()).casefold()


def check_nickname(nickname: str, taken: Callable[[str], bool]) -> str:
    """``nickname`` if it is free; ``taken(key)`` says whether a student of the session
    already has the ``nickname_key``. NicknameTaken for a taken one or a default label;
    TextRefused for one a certificate's name could not be (``practice.cert_names``: a
    control, zero-width or bidi character, a word mixing look-alike alphabets), which
    could pass for another student or a default label on the lecturer's screen."""
    key = nickname_key(nickname)
    if not key:
        return nickname
    try:
        check_name(nickname)  # nothing invisible, no look-alike letters
    except ValueError as err:
        raise TextRefused(f"Pick another nickname: {err}") from None
    if _DEFAULT_LABEL.match(key):
        raise NicknameTaken(
            "Names like “Student 3” are kept for students without a nickname: pick another."
        )
    if taken(key):
        raise NicknameTaken("Another student has this nickname: pick another.")
    return nickname


def label_for(nickname: str, number: int) -> str:
    """The label a student is shown as: their nickname, else "Student <number>"."""
    nickname = " ".join(nickname.split())
    return nickname or f"Student {number}"
