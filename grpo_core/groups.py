"""Rewards grouped by prompt: parsing, validation and per-group sums.

Rewards arrive as a 2-D array ``(num_prompts, group_size)``, a 1-D array cut
into consecutive blocks of ``group_size``, or a 1-D array with a group id per
reward (verl's uid; groups may be uneven and interleaved). Either way they
become a ``GroupedRewards`` whose ``group_sum`` and ``per_reward`` let the
advantage math be written once, vectorized, for both layouts.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core import _checks

MAX_ABS_REWARD = 1e100
"""Rewards beyond this magnitude are refused: their squares would overflow."""


@dataclass(frozen=True, eq=False)
class GroupedRewards:
    """Rewards with their grouping.

    ``values`` is float64 of shape ``(G, K)`` when every group has K rewards
    in consecutive positions ("dense"), else of shape ``(N,)`` with ``codes``
    (N,) giving each reward's group index in ``0..G-1``.
    """

    values: np.ndarray
    codes: np.ndarray | None
    labels: Sequence
    """(G,) group labels: range(G) for prompts in order, else the distinct group ids."""
    sizes: np.ndarray
    shape: tuple[int, ...]
    """Shape of the caller's rewards, which the advantages take."""
    single_group: bool = False

    @property
    def num_groups(self) -> int:
        return len(self.sizes)

    def group_sum(self, x: np.ndarray) -> np.ndarray:
        """Sum of ``x`` (laid out like ``values``) over each group: shape (G,)."""
        if self.codes is None:
            # A matrix-vector product is the fastest row sum numpy has.
            return x @ np.ones(x.shape[1])
        return np.bincount(self.codes, weights=x, minlength=self.num_groups)

    def group_sum_squares(self, x: np.ndarray) -> np.ndarray:
        """Sum of ``x**2`` over each group: shape (G,)."""
        if self.codes is None:
            return np.einsum("ij,ij->i", x, x)
        return np.bincount(self.codes, weights=x * x, minlength=self.num_groups)

    def per_reward(self, stat: np.ndarray) -> np.ndarray:
        """A per-group statistic (G,) broadcast to every reward of the group."""
        if self.codes is None:
            return stat[:, None]
        return stat[self.codes]

    def rows(self, groups: np.ndarray) -> list[np.ndarray]:
        """The rewards of each of the given groups (for the rare slow paths)."""
        if self.codes is None:
            return list(self.values[groups])
        return [self.values[self.codes == g] for g in groups]

    def restore(self, x: np.ndarray) -> np.ndarray:
        """``x`` laid out like ``values``, reshaped to the caller's shape."""
        return x.reshape(self.shape)

    def position(self, flat_index: int) -> str:
        """Plain-words position of reward ``flat_index`` of the caller's array."""
        if self.single_group:
            return f"reward {flat_index + 1}"
        if self.codes is None:
            size = self.values.shape[1]
            return f"reward {flat_index % size + 1} of prompt {flat_index // size + 1}"
        return f"reward {flat_index + 1} (group {self.labels[self.codes[flat_index]]!r})"

    def group_name(self, g: int) -> str:
        if self.single_group:
            return "the group"
        if self.codes is None:
            return f"prompt {g + 1}"
        return f"group {self.labels[g]!r}"


def group_rewards(rewards, *, group_size=None, group_ids=None) -> GroupedRewards:
    """Parse and group ``rewards``; ValueError in plain words for bad input.

    Finiteness is checked later, cheaply, by ``check_finite`` on group sums.
    """
    values = _as_float_array(rewards, group_size if group_ids is None else None)
    if values.ndim == 0:
        raise ValueError("rewards must be a list or array of numbers, not a single number.")
    if values.ndim > 2:
        raise ValueError(
            f"rewards must be 1-D or 2-D (prompts x answers), got {values.ndim} dimensions."
        )
    if values.size == 0:
        raise ValueError("no rewards given: a group needs at least one reward.")
    if group_ids is not None:
        if group_size is not None:
            raise ValueError("give group_size or group_ids, not both.")
        return _by_ids(values, group_ids)
    if values.ndim == 2:
        if (
            group_size is not None
            and _checks.whole(group_size, "group_size", minimum=1) != values.shape[1]
        ):
            raise ValueError(
                f"group_size={group_size} does not match the {values.shape[1]} "
                f"rewards per row of a {values.shape[0]} x {values.shape[1]} array."
            )
        return _dense(values, values.shape, labels=range(values.shape[0]))
    if group_size is None:
        return _dense(values[None, :], values.shape, labels=range(1), single_group=True)
    group_size = _checks.whole(group_size, "group_size", minimum=1)
    n, extra = divmod(values.size, group_size)
    if extra:
        raise ValueError(
            f"group_size={group_size} does not divide the {values.size} rewards "
            f"({values.size} = {n} x {group_size} + {extra})."
        )
    return _dense(values.reshape(n, group_size), values.shape, labels=range(n))


def check_finite(grouped: GroupedRewards, mean: np.ndarray, sum_squares: np.ndarray) -> float:
    """Raise ValueError naming the first NaN, infinite or huge reward; return max |mean|.

    A non-finite or huge reward makes its group's mean or sum of squares
    non-finite or huge, so the group statistics (G values) are checked first
    and the rewards themselves only when something is off. (max and min
    propagate NaN, so a NaN fails every comparison below.)
    """
    limit = MAX_ABS_REWARD
    largest_mean = max(mean.max(), -mean.min())
    if largest_mean <= limit and sum_squares.max() <= 4 * limit * limit:
        return float(largest_mean)
    flat = grouped.values.ravel()
    bad = np.flatnonzero(~(np.abs(flat) <= limit))
    if bad.size == 0:
        return float(largest_mean)
    i = int(bad[0])
    where = grouped.position(i)
    x = flat[i]
    if np.isnan(x):
        raise ValueError(f"{where} is NaN (not a number); every reward must be a number.")
    if np.isinf(x):
        raise ValueError(f"{where} is {'+' if x > 0 else '-'}infinite; rewards must be finite.")
    raise ValueError(f"{where} is {x:.3g}, too large: rewards must lie within ±{limit:.0e}.")


def _dense(values, shape, *, labels, single_group=False) -> GroupedRewards:
    num_groups, group_size = values.shape
    return GroupedRewards(
        values=values,
        codes=None,
        labels=labels,
        sizes=np.full(num_groups, group_size),
        shape=tuple(shape),
        single_group=single_group,
    )


def _by_ids(values: np.ndarray, group_ids) -> GroupedRewards:
    if values.ndim != 1:
        raise ValueError("group_ids go with 1-D rewards (one id per reward).")
    ids = np.asarray(group_ids) if isinstance(group_ids, np.ndarray) else None
    if ids is None or ids.dtype.kind not in "biufUS":
        try:
            ids = pd.Series(list(group_ids), dtype=object)
        except TypeError:
            raise ValueError("group_ids must be a list with one id per reward.") from None
    if ids.ndim != 1 or len(ids) != values.size:
        raise ValueError(
            f"group_ids has {len(ids)} ids for {values.size} rewards; give one id per reward."
        )
    try:
        codes, uniques = pd.factorize(ids, use_na_sentinel=True)
    except TypeError as e:
        raise ValueError(f"group ids must be hashable labels (numbers or text): {e}.") from None
    if (codes < 0).any():
        i = int(np.flatnonzero(codes < 0)[0])
        raise ValueError(f"the group id of reward {i + 1} is missing.")
    sizes = np.bincount(codes, minlength=len(uniques))
    return GroupedRewards(
        values=values,
        codes=codes.astype(np.intp),
        labels=tuple(uniques.tolist()),
        sizes=sizes,
        shape=values.shape,
    )


def _as_float_array(rewards, group_size=None) -> np.ndarray:
    """float64 array of ``rewards``; ValueError naming the first non-number."""
    if isinstance(rewards, (str, bytes)):
        raise ValueError("rewards must be numbers, not text.")
    try:
        arr = np.asarray(rewards)
    except ValueError:
        raise ValueError(
            "the rows of rewards have different lengths; for groups of uneven "
            "size pass a flat list with group_ids."
        ) from None
    if arr.dtype.kind in "biuf":
        return np.array(arr, dtype=np.float64, order="C", copy=None)
    if arr.dtype.kind == "c":
        raise ValueError("rewards must be real numbers, not complex.")
    arr = np.asarray(rewards, dtype=object)  # keep each element's own type
    # Object or text: find the first element that is not a real number.
    flat = arr.reshape(-1) if arr.ndim else arr.reshape(1)
    out = np.empty(flat.shape, dtype=np.float64)
    for i, x in enumerate(flat):
        if isinstance(x, (numbers.Real, np.bool_)):
            out[i] = float(x)
            continue
        where = _position_in(arr.shape, i, group_size)
        if x is None or (isinstance(x, float) and math.isnan(x)):
            raise ValueError(f"{where} is empty; every reward must be a number.")
        shown = repr(x) if len(repr(x)) <= 40 else repr(x)[:37] + "..."
        kind = "the text " if isinstance(x, str) else ""
        raise ValueError(f"{where} is {kind}{shown}, not a number.")
    return out.reshape(arr.shape)


def _position_in(shape: tuple[int, ...], i: int, group_size) -> str:
    size = shape[1] if len(shape) == 2 else group_size
    if isinstance(size, numbers.Integral) and not isinstance(size, bool) and size >= 1:
        return f"reward {i % size + 1} of prompt {i // size + 1}"
    return f"reward {i + 1}"
