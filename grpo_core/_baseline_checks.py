"""Validators shared by the per-token modules (gae, critic, memory): ValueError in plain words."""

from __future__ import annotations

import math
import numbers

import numpy as np


def _as_count(x, name: str) -> int:
    if isinstance(x, bool) or not isinstance(x, numbers.Integral) or x < 1:
        raise ValueError(f"{name} must be a whole number >= 1, got {x!r}.")
    return int(x)


def _as_lengths(lengths) -> np.ndarray:
    arr = np.asarray(lengths)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("lengths must be a non-empty list with one token count per response.")
    if arr.dtype.kind not in "iu" and not (
        arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr))
    ):
        raise ValueError(f"lengths must be whole numbers of tokens, got {lengths!r}.")
    arr = arr.astype(np.intp)
    if arr.min() < 1:
        i = int(np.argmin(arr))
        raise ValueError(f"response {i + 1} has {arr[i]} tokens; every response needs >= 1.")
    return arr


def _as_finite(x, name: str, *, shape) -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64)
    if shape is not None and arr.shape != shape:
        raise ValueError(
            f"{name} must have one value per response, shape {shape}; got {arr.shape}."
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite numbers.")
    return arr


def _as_finite_scalar(x, name: str) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number, got {x!r}.")
    return float(x)


def _as_nonnegative(x, name: str) -> float:
    x = _as_finite_scalar(x, name)
    if x < 0:
        raise ValueError(f"{name} must be >= 0, got {x!r}.")
    return x


def _as_unit(x, name: str) -> float:
    x = _as_finite_scalar(x, name)
    if not 0 <= x <= 1:
        raise ValueError(f"{name} must lie in [0, 1], got {x!r}.")
    return x


def _as_mask(mask, shape) -> np.ndarray:
    arr = np.asarray(mask)
    if arr.shape != tuple(shape):
        raise ValueError(f"mask must have shape {tuple(shape)}, got {arr.shape}.")
    if arr.dtype != bool:
        if not np.all((arr == 0) | (arr == 1)):
            raise ValueError("mask must be True/False (or 1/0) per token.")
        arr = arr.astype(bool)
    return arr


def _check_finite_where(x: np.ndarray, mask: np.ndarray, name: str) -> None:
    bad = mask & ~np.isfinite(x)
    if bad.any():
        b, t = np.argwhere(bad)[0]
        raise ValueError(f"{name} of response {b + 1}, token {t + 1} is {x[b, t]}; must be finite.")
