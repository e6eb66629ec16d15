"""Argument checks shared by grpo_core: each returns the clean value or raises a ValueError
that names the argument, says what is valid and shows what was given."""

from __future__ import annotations

import math
import numbers

import numpy as np

DDOFS: tuple[int, ...] = (0, 1)
"""The std's degrees of freedom a convention may use."""

MIN_POSITIVE_EPS = 1e-300
"""A positive eps below this is refused: 1 / eps would overflow (grpo_core divides
by multiplying with 1 / (std + eps), which turns 0 x inf into NaN on a tie)."""


def is_real(x) -> bool:
    """A real number that is not a bool (True is not a reward)."""
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def finite(x, name: str) -> float:
    """``x`` as a float; ValueError unless it is a finite real number."""
    if not is_real(x) or not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number, got {x!r}.")
    return float(x)


def non_negative(x, name: str) -> float:
    """``x`` as a float; ValueError unless it is a finite real number >= 0."""
    if not is_real(x) or not math.isfinite(x) or x < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {x!r}.")
    return float(x)


def whole(x, name: str, *, minimum: int) -> int:
    """``x`` as an int; ValueError unless it is a whole number >= ``minimum``."""
    if isinstance(x, bool) or not isinstance(x, numbers.Integral) or x < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}, got {x!r}.")
    return int(x)


def ddof(x) -> int:
    """The std's degrees of freedom: 0 (population) or 1 (sample); ValueError otherwise."""
    if isinstance(x, bool) or x not in DDOFS:
        raise ValueError(
            f"ddof must be 0 (population std, divide by K) or 1 "
            f"(sample std, divide by K-1), got {x!r}."
        )
    return int(x)


def probabilities(p) -> np.ndarray:
    """``p`` as a float64 array of pass rates, each in [0, 1]; ValueError otherwise."""
    try:
        arr = np.asarray(p, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"p must be a probability or an array of them, got {p!r}.") from None
    if not np.all((arr >= 0) & (arr <= 1)):
        raise ValueError("a pass rate p must lie between 0 and 1.")
    return arr


def float_rewards(rewards) -> np.ndarray:
    """float64 rewards of shape (K,) or (G, K), finite and non-empty."""
    if isinstance(rewards, (str, bytes)):
        raise ValueError("rewards must be numbers, not text.")
    try:
        x = np.asarray(rewards, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            "rewards must be a list of numbers (or equal-length rows of them)."
        ) from None
    if x.ndim not in (1, 2):
        raise ValueError(f"rewards must be 1-D or 2-D (prompts x answers), got {x.ndim}-D.")
    if x.size == 0:
        raise ValueError("no rewards given: a group needs at least one reward.")
    if not np.all(np.isfinite(x)):
        raise ValueError("every reward must be a finite number (no NaN or infinity).")
    return x


def one_group(rewards) -> np.ndarray:
    """float64 rewards of one group, shape (K,)."""
    x = float_rewards(rewards)
    if x.ndim != 1:
        raise ValueError("give one group: a flat list of rewards (K,), not a table.")
    return x


def eps_values(values) -> np.ndarray:
    """(E,) float64 eps values, each 0 or in [MIN_POSITIVE_EPS, inf); ValueError otherwise."""
    try:
        eps = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("eps_values must be a list of numbers.") from None
    if eps.ndim != 1 or eps.size == 0:
        raise ValueError("eps_values must be a non-empty list of numbers.")
    if not np.all(np.isfinite(eps) & (eps >= 0)):
        bad = eps[~(np.isfinite(eps) & (eps >= 0))][0]
        raise ValueError(f"every eps must be a finite number >= 0, got {bad!r}.")
    tiny = (eps > 0) & (eps < MIN_POSITIVE_EPS)
    if tiny.any():
        raise ValueError(
            f"eps must be 0 or at least {MIN_POSITIVE_EPS:g}, got {eps[tiny][0]!r}: "
            "a smaller eps makes 1/eps overflow."
        )
    return eps


# --- per-token arrays (GAE, the toy critic, length normalisation) ---------------------------


def token_lengths(lengths) -> np.ndarray:
    """``lengths`` as a (G,) int64 array of token counts, each a whole number >= 1."""
    try:
        arr = np.asarray(lengths)
    except ValueError:
        raise ValueError("lengths must be a flat list of token counts.") from None
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("lengths must be a non-empty flat list, one token count per completion.")
    if arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"every length must be a whole number of tokens, got {lengths!r}.")
    if arr.min() < 1:
        raise ValueError(
            f"every completion has at least 1 token, got length {int(arr.min())} "
            f"(completion {int(np.argmin(arr)) + 1})."
        )
    return arr.astype(np.int64)


def finite_array(x, name: str, *, shape) -> np.ndarray:
    """``x`` as a float64 array of ``shape`` (when given) with only finite values."""
    arr = np.asarray(x, dtype=np.float64)
    if shape is not None and arr.shape != shape:
        raise ValueError(
            f"{name} must have one value per response, shape {shape}; got {arr.shape}."
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite numbers.")
    return arr


def unit_interval(x, name: str) -> float:
    """``x`` as a float in [0, 1]; ValueError otherwise."""
    x = finite(x, name)
    if not 0 <= x <= 1:
        raise ValueError(f"{name} must lie in [0, 1], got {x!r}.")
    return x


def token_mask(mask, shape) -> np.ndarray:
    """``mask`` as a bool array of ``shape`` (True/False or 1/0 per token)."""
    arr = np.asarray(mask)
    if arr.shape != tuple(shape):
        raise ValueError(f"mask must have shape {tuple(shape)}, got {arr.shape}.")
    if arr.dtype != bool:
        if not np.all((arr == 0) | (arr == 1)):
            raise ValueError("mask must be True/False (or 1/0) per token.")
        arr = arr.astype(bool)
    return arr


def finite_where(x: np.ndarray, mask: np.ndarray, name: str) -> None:
    """ValueError naming the first response and token where ``x`` is not finite under ``mask``."""
    bad = mask & ~np.isfinite(x)
    if bad.any():
        b, t = np.argwhere(bad)[0]
        raise ValueError(f"{name} of response {b + 1}, token {t + 1} is {x[b, t]}; must be finite.")


MAX_ANSWER_NUMBER = 2**31 - 1
"""The largest number an answer may be shown with (a grid's row; far past any grid)."""


def answer_numbers(numbers, group_size: int) -> list[int]:
    """The numbers a group's ``group_size`` answers are shown with: ``numbers`` (one whole
    number >= 1 per answer, as the rows of a grid where a cell left out keeps its number)
    as ints, or 1..K when None; ValueError for the wrong count or a non-number."""
    if numbers is None:
        return list(range(1, group_size + 1))
    if isinstance(numbers, str | bytes) or not hasattr(numbers, "__iter__"):
        raise ValueError(f"numbers must be a list of whole numbers, got {numbers!r}.")
    numbers = [whole(n, "an answer's number", minimum=1) for n in numbers]
    if any(n > MAX_ANSWER_NUMBER for n in numbers):
        raise ValueError(f"an answer's number must be at most {MAX_ANSWER_NUMBER:,}.")
    if len(numbers) != group_size:
        raise ValueError(
            f"numbers must give one number per answer: {len(numbers)} for {group_size} answers."
        )
    return numbers
