"""The store's contract: what a class session holds, and what every backend must do.

A class session is a short-lived room: a join code, the students who joined, numbered
rounds (one question each) and one answer per student per round. Every backend
(``practice.store.sqlite``, ``practice.store.redis_store``) implements ``ClassStore``
and passes the same test suite (tests/practice/store/).

Guarantees, for every backend:
- One answer per (round, student): a changed answer replaces the earlier one while the
  round is open; ``tally`` always equals the stored answers, also under concurrent submits.
- Idempotent submits: a ``submit_id`` already seen for this student is acknowledged
  again and counts nothing (a retried or resent vote never counts twice).
- Refusals are exceptions with a plain-words message (``StoreRefusal`` subclasses):
  an unknown or expired code, a closed round, too many submits a second, text too long.
- An outage is not a refusal: each backend's ``is_outage(err)`` says which of its own
  errors mean "not reachable now, try again" (``StoreUnavailable``, raised by the app's
  guard ``ui.store_guard``), and ``ping()`` asks whether it is back.
- A session expires ``SESSION_TTL`` seconds after it was created, by the store's clock
  (injectable: ``clock`` is a zero-argument callable returning Unix seconds).

Learner progress lives in the same store and backends under a second protocol,
``LearnerStore``: a private learner key (``new_learner_key``: 24 random bytes, URL-safe,
so one learner's key tells nothing of another's), the learner's attempts in the order
they were made and one FSRS card state per (learner, question id). Guarantees:
- A key that kept something never expires; one that never kept anything is deleted a
  week after it was made, and a key keeps its last 20,000 attempts and at most 1,000 cards
  (``learner_rules``). On Redis this needs append-only persistence (``appendonly yes`` in
  redis.conf, or ``--appendonly yes``): a Redis run as a cache (``--save ''``) would lose
  every learner's progress on a restart, while class sessions tolerate that.
- A key that is not of the learner-key form, or that no ``create_learner`` made, is
  refused with ``UnknownLearner``: nothing is written under a guessed key.
- ``delete_learner`` really deletes: no row or Redis key of the learner is left.
- ``replace_progress`` swaps a learner's attempts, cards and own FSRS parameters at once
  (JSON import, see ``practice.store.learner_json``).

A quiz's answers live here too, under a third protocol, ``QuizStore``: a quiz gets a
random id (``new_quiz_id``: 16 random bytes, URL-safe) when it starts, stored with its
seed and the ids it asks, and each graded answer is stored as it is made. Guarantees:
- The first answer to a question of a quiz stands: a later one (an old link reopened, the
  browser's Back, a resent form) is ignored, atomically, also under concurrent answers.
- An answer to a question the quiz does not ask, or to a quiz the store never made, is
  refused (``UnknownQuiz``, ``TextRefused``); credit is an exact fraction from 0 to 1,
  kept as text ("3/4").
- A quiz with an answer, or a certification attempt's, does not expire (a learner may
  come back to a quiz link days later); a practice quiz never answered is deleted a week
  after it started (``learner_rules.UNUSED_DAYS``: every first visit to the Quiz page
  starts one).
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

JOIN_ALPHABET = "ABCDFGHJKMNPQRSTUVWXYZ23456789"
"""Join-code letters: no 0/O, 1/I/L, so a code read off a projector is typed right; no E,
so no code reads as a number in exponent form ("2E9999" would be an infinite float)."""
CODE_LENGTH = 6
SESSION_TTL = 24 * 3600.0
"""Seconds a class session lives after it was created."""
MAX_NICKNAME_CHARS = 40
MAX_ANSWER_CHARS = 500
MAX_SUBMITS_PER_SECOND = 5
"""Submits one student token may make in one clock second; more are refused."""
MAX_JOINS_PER_MINUTE = 5
"""Joins one client (a browser, or an address) may make in a session in one clock minute."""
MAX_CLIENT_CHARS = 128
"""A client key (``join(client=...)``) is cut to this many characters."""
MAX_ID_CHARS = 64
"""Student tokens and submit ids are short random strings; longer ones are refused."""
REVEALS = ("none", "distribution", "answer")
"""What a round shows the room: nothing yet, the distribution, the right answer."""
LEARNER_KEY_BYTES = 24
"""Random bytes of a learner key: 32 URL-safe characters, 192 bits, never guessed."""
_LEARNER_KEY = re.compile(r"^[A-Za-z0-9_-]{32}$")
MAX_QUESTION_ID_CHARS = 40
"""A bank id is at most 40 characters (``practice.bank``)."""
MAX_CARD_CHARS = 1000
"""A stored card state (JSON of an FSRS card) is a few hundred characters."""
RATINGS = (1, 2, 3, 4)
"""FSRS ratings: 1 Again, 2 Hard, 3 Good, 4 Easy."""
QUIZ_ID_BYTES = 16
"""Random bytes of a quiz id: 22 URL-safe characters, 128 bits, never guessed."""
_QUIZ_ID = re.compile(r"^[A-Za-z0-9_-]{22}$")
MAX_QUIZ_QUESTIONS = 500
"""A quiz asks at most this many questions (the bank has about 60)."""

Clock = Callable[[], float]


class StoreRefusal(Exception):
    """A request the store refuses; ``str(err)`` is a message for the person who made it."""


class StoreUnavailable(Exception):
    """The store could not be reached or could not answer in time (Redis restarting or
    loading its append-only file, a dropped connection, a SQLite file locked or its disk
    failing). Not a refusal: nothing was decided, and the same call may succeed a moment
    later. Raised by ``ui.store_guard`` from the backends' own errors (``is_outage``)."""

    def __init__(self, detail: str = ""):
        super().__init__("The class store cannot be reached right now: reconnecting.")
        self.detail = detail
        """The backend's error, for the server log (never shown)."""


class UnknownSession(StoreRefusal):
    def __init__(self, code: str = ""):
        super().__init__(
            f"No class session has the code {code[:CODE_LENGTH]!r}, or it has ended: "
            "check the code on the projector."
        )


class RoundClosed(StoreRefusal):
    def __init__(self):
        super().__init__(
            "This round has closed (time is up, or the lecturer closed it): "
            "your answer was not counted."
        )


class RateLimited(StoreRefusal):
    def __init__(self):
        super().__init__(
            f"Too many answers at once (at most {MAX_SUBMITS_PER_SECOND} a second): "
            "wait a moment and send it again."
        )


class TextRefused(StoreRefusal):
    """Text over its bound, or an id that is not a short token."""


class NicknameTaken(TextRefused):
    """A nickname another student of the session has, or one like the default labels."""


class JoinsLocked(StoreRefusal):
    def __init__(self):
        super().__init__(
            "The lecturer has closed this session to new students: ask them to open it again."
        )


class JoinsLimited(StoreRefusal):
    def __init__(self):
        super().__init__(
            f"Too many joins from this device (at most {MAX_JOINS_PER_MINUTE} a minute): "
            "wait a minute and join again."
        )


class UnknownLearner(StoreRefusal):
    def __init__(self):
        super().__init__(
            "This learner link is not known here: open the link you kept, or start afresh."
        )


@dataclass(frozen=True)
class ClassSession:
    code: str
    created: float
    """Unix seconds."""
    expires: float
    ended: bool


@dataclass(frozen=True)
class Student:
    token: str
    """Random, private to the student (it is in their URL)."""
    label: str
    """The nickname, or "Student <n>" when none was given; shown as text only."""


@dataclass(frozen=True)
class Round:
    number: int
    """1, 2, ... in the order the lecturer opened them."""
    question: str
    """What is asked, as text the caller encodes (see ``practice.class_round``)."""
    open: bool
    reveal: str
    """One of ``REVEALS``."""
    revote_of: int | None
    """The round this one asks again (peer instruction's second vote), or None."""
    opened: float
    closes: float | None = None
    """Unix seconds when the store closes the round by itself (its countdown), or None.
    ``open`` is already False once the store's clock reached it."""


@dataclass(frozen=True)
class Answer:
    token: str
    label: str
    answer: str
    at: float
    """Unix seconds of the last change."""
    confidence: str = ""
    """One of ``class_rules.CONFIDENCES``, or "" when the student did not say."""


@dataclass(frozen=True)
class Receipt:
    """The store's acknowledgement of a submit."""

    duplicate: bool
    """True when this submit_id was seen before: nothing changed."""


class ClassStore(Protocol):
    """Class sessions: a code, students, rounds and one answer per student per round."""

    def create_session(self) -> ClassSession:
        """A new session with a fresh join code; expired sessions are purged first."""

    def session(self, code: str) -> ClassSession:
        """The live session with this code; UnknownSession if none or expired."""

    def end_session(self, code: str) -> None:
        """No more rounds or answers; results stay readable until the session expires."""

    def join(self, code: str, nickname: str = "", client: str = "") -> Student:
        """A new student. A nickname is unique in the session (any case and spacing) and
        never a default label ("Student 3"): NicknameTaken. A non-empty ``client`` (a
        browser or address key) may join at most MAX_JOINS_PER_MINUTE times a minute:
        JoinsLimited. ClassFull when the session's ``class_size`` seats are all taken."""

    def class_size(self, code: str) -> int:
        """The seats of the session (``class_rules.DEFAULT_CLASS_SIZE`` until set)."""

    def set_class_size(self, code: str, seats: int) -> None:
        """Set the seats (1 to ``class_rules.MAX_CLASS_SIZE``); seats taken stay taken."""

    def remove_student(self, code: str, token: str) -> bool:
        """Free a seat: the student, their answers (the tallies with them) and their nickname
        go; their link stops working. Whether there was such a student."""

    def lock_joins(self, code: str, locked: bool) -> None:
        """Close the session to new students (``join`` raises JoinsLocked), or open it."""

    def joins_locked(self, code: str) -> bool: ...
    def student(self, code: str, token: str) -> Student | None: ...
    def students(self, code: str) -> list[Student]: ...
    def open_round(
        self, code: str, question: str, revote_of: int | None = None, seconds: float | None = None
    ) -> Round:
        """A new round, open for answers; the round open before it closes. With ``seconds``
        (0 < seconds <= ``class_rules.MAX_ROUND_SECONDS``) the store closes it that long
        after opening: a submit at or after ``Round.closes`` is refused (RoundClosed), on
        every replica."""

    def close_round(self, code: str, number: int) -> None: ...
    def set_reveal(self, code: str, number: int, reveal: str) -> None: ...
    def rounds(self, code: str) -> list[Round]: ...
    def current_round(self, code: str) -> Round | None:
        """The latest round, or None before the first."""

    def submit(
        self, code: str, number: int, token: str, answer: str, submit_id: str, confidence: str = ""
    ) -> Receipt:
        """Store (or replace) this student's answer to round ``number``, with how sure they
        are (one of ``class_rules.CONFIDENCES``, or ""): answer and confidence replace
        together."""

    def answers(self, code: str, number: int) -> list[Answer]:
        """The round's answers, in the order the students joined."""

    def tally(self, code: str, number: int) -> dict[str, int]:
        """answer text -> how many students gave it."""

    def purge_expired(self) -> int:
        """Delete the sessions past their expiry; how many were deleted."""

    def set_question_set(self, code: str, text: str) -> None:
        """Keep the lecturer's own questions (TOML text, at most
        ``class_rules.MAX_SET_CHARS``) with the session, replacing the set kept before;
        every replica reads the same set."""

    def question_set(self, code: str) -> str:
        """The session's own questions as set last ("" before any)."""


@dataclass(frozen=True)
class Attempt:
    """One answer a learner gave to one bank question."""

    question_id: str
    kind: str
    """The question's kind (``practice.questions.KINDS``)."""
    score: float
    """1.0 right, 0.0 wrong, in between for partial credit."""
    seconds: float
    """Time taken to answer, in seconds (>= 0)."""
    rating: int
    """The FSRS rating the card was reviewed with (one of ``RATINGS``)."""
    at: float
    """Unix seconds when it was answered."""


class LearnerStore(Protocol):
    """A learner's progress: attempts and FSRS card states under a private key; a used key
    has no expiry (``learner_rules``)."""

    def create_learner(self) -> str:
        """A new learner key (``new_learner_key``), stored with its creation time."""

    def learner_exists(self, key: str) -> bool:
        """Whether ``key`` (any object) is a learner this store made; never raises."""

    def add_attempt(self, key: str, attempt: Attempt) -> None: ...
    def attempts(self, key: str) -> list[Attempt]:
        """The learner's attempts, oldest first."""

    def card(self, key: str, question_id: str) -> dict | None:
        """The stored card state of this question (a JSON object), or None if never seen."""

    def set_card(self, key: str, question_id: str, state: Mapping) -> None: ...
    def cards(self, key: str) -> dict[str, dict]:
        """question id -> card state, for every card the learner has."""

    def replace_progress(self, key: str, attempts: Sequence[Attempt], cards, parameters=None):
        """The learner's attempts, cards (question id -> state) and own FSRS parameters
        (``parameter_store``; None: the defaults) become exactly these (one transaction)."""

    def delete_learner(self, key: str) -> None:
        """Delete the learner and everything stored under the key; unknown keys are ignored."""


class UnknownQuiz(StoreRefusal):
    def __init__(self):
        super().__init__("This quiz is not known here: start a new quiz.")


@dataclass(frozen=True)
class StoredQuiz:
    """A quiz as the store keeps it: enough to rebuild its order, and its answers."""

    quiz_id: str
    seed: int
    question_ids: tuple[str, ...]
    """The ids the quiz asks, sorted (the order is ``practice.session.start_quiz``'s)."""
    answers: Mapping[str, Fraction]
    """Question id -> the credit of its first graded answer, 0 to 1."""
    created: float
    """Unix seconds."""


class QuizStore(Protocol):
    """Quizzes: a random id, the seed and questions, and the first answer to each question."""

    def create_quiz(self, seed: int, question_ids: Sequence[str]) -> str:
        """A new quiz id (``new_quiz_id``), stored with the seed and the ids asked."""

    def quiz(self, quiz_id) -> StoredQuiz | None:
        """The stored quiz with its answers; None for an unknown id or junk (never raises)."""

    def answer_quiz(self, quiz_id: str, question_id: str, credit: Fraction) -> Fraction:
        """Store the answer's credit unless the question was answered already in this quiz;
        returns the credit that stands (the first). UnknownQuiz, TextRefused."""


class Store(ClassStore, LearnerStore, QuizStore, Protocol):
    """What ``practice.store.open_store`` returns: the three protocols, on one backend
    (and a learner's flags and own FSRS parameters: ``flag_store.FlagStore``,
    ``parameter_store.ParameterStore``)."""


def new_learner_key() -> str:
    """A learner key: ``LEARNER_KEY_BYTES`` random bytes from ``secrets``, URL-safe."""
    return secrets.token_urlsafe(LEARNER_KEY_BYTES)


def is_learner_key(key) -> bool:
    """Whether ``key`` has the form of a learner key (not whether it exists)."""
    return isinstance(key, str) and _LEARNER_KEY.fullmatch(key) is not None


def new_quiz_id() -> str:
    """A quiz id: ``QUIZ_ID_BYTES`` random bytes from ``secrets``, URL-safe."""
    return secrets.token_urlsafe(QUIZ_ID_BYTES)


def is_quiz_id(quiz_id) -> bool:
    """Whether ``quiz_id`` has the form of a quiz id (not whether it exists)."""
    return isinstance(quiz_id, str) and _QUIZ_ID.fullmatch(quiz_id) is not None


def check_new_quiz(seed: int, question_ids: Sequence[str]) -> tuple[int, str]:
    """(seed, the sorted ids joined by newlines) of a quiz to create; TextRefused if unfit."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise TextRefused("A quiz's seed must be a whole number from 0 to 2**32 - 1.")
    ids = sorted(set(question_ids))
    if not ids or len(ids) != len(question_ids) or len(ids) > MAX_QUIZ_QUESTIONS:
        raise TextRefused(f"A quiz asks 1 to {MAX_QUIZ_QUESTIONS} distinct questions.")
    for qid in ids:
        check_text(qid, MAX_QUESTION_ID_CHARS, "question id")
        if not qid or "\n" in qid:
            raise TextRefused("A question id must be a non-empty line.")
    return seed, "\n".join(ids)


def credit_text(credit) -> str:
    """An answer's credit as the text both backends keep ("1", "0", "3/4"); TextRefused
    unless it is True, False or an exact fraction from 0 to 1."""
    if isinstance(credit, float) or not isinstance(credit, int | Fraction):
        raise TextRefused("An answer's credit must be an exact fraction.")
    if not 0 <= credit <= 1:
        raise TextRefused("An answer's credit must be from 0 to 1.")
    return str(Fraction(credit))


def check_attempt(attempt: Attempt) -> Attempt:
    """``attempt`` if every field is in range; TextRefused naming the field otherwise."""
    a = attempt
    check_text(a.question_id, MAX_QUESTION_ID_CHARS, "question id")
    check_text(a.kind, 16, "question kind")
    numbers = (a.score, a.seconds, a.at)
    if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in numbers):
        raise TextRefused("An attempt's score, seconds and time must be numbers.")
    if not (0.0 <= a.score <= 1.0 and 0.0 <= a.seconds < 1e7 and 0.0 <= a.at < 1e11):
        raise TextRefused("An attempt's score, seconds or time is out of range.")
    if a.rating not in RATINGS or isinstance(a.rating, bool):
        raise TextRefused(f"An attempt's rating must be one of {RATINGS}.")
    return a


def card_text(question_id: str, state: Mapping) -> str:
    """The card state as the JSON text both backends keep; TextRefused when out of bounds."""
    check_text(question_id, MAX_QUESTION_ID_CHARS, "question id")
    if not isinstance(state, Mapping):
        raise TextRefused("A card state must be a JSON object.")
    return check_text(json.dumps(dict(state), sort_keys=True), MAX_CARD_CHARS, "card state")


def new_code() -> str:
    """A random join code of CODE_LENGTH letters from JOIN_ALPHABET."""
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    """A student token or submit id: 16 random bytes, URL-safe."""
    return secrets.token_urlsafe(16)


def normal_code(code) -> str:
    """A typed code in the form the store keeps: upper case, spaces and dashes dropped."""
    if not isinstance(code, str):
        return ""
    return code.strip().upper().replace(" ", "").replace("-", "")[: CODE_LENGTH + 4]


def check_text(text, limit: int, what: str) -> str:
    """``text`` if it is a string of at most ``limit`` characters; TextRefused otherwise."""
    if not isinstance(text, str):
        raise TextRefused(f"The {what} must be text.")
    if len(text) > limit:
        raise TextRefused(f"The {what} is too long: at most {limit} characters.")
    return text


def check_id(value, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_ID_CHARS:
        raise TextRefused(f"The {what} is not valid: open the class link again.")
    return value


def check_reveal(reveal: str) -> str:
    if reveal not in REVEALS:
        raise ValueError(f"reveal must be one of {', '.join(REVEALS)}, got {reveal!r}.")
    return reveal


def join_window(now: float) -> int:
    """The clock minute a join is counted in."""
    return int(now // 60)
