"""What the training-log page and the bugs gallery share: reading an upload once per file
(cached by the hash of its bytes), the column-mapping controls, and opening rewards in the
playground or the walkthrough with one click.

Session keys: ``tl.source``, ``tl.upload``, ``tl.map.<digest>.<role>``, ``.rewards``,
``.ignored``, ``.k`` and ``tl.roles`` (the page's own).
Opening a page writes the shared keys documented in ui/state.py: the grid
(``state.set_grid``) and ``settings.*``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import content
from grpo_core import log_files, log_grouping, rollouts
from grpo_core.format import shortest
from grpo_core.inference import ConventionFit, fit_conventions
from grpo_core.log_summary import (
    LogGroups,
    log_groups,
    log_totals,
    method_effects,
    step_summary,
    worst_groups,
)
from grpo_core.multi_reward import compare_aggregations
from grpo_core.rollouts import ColumnMap, LoadedLog, LogError
from practice import limits
from ui import client, nav, present, state
from ui.text import markdown_safe
from workers import upload

SAMPLE = "sample_log.csv"
UPLOAD_HINT = (
    "Choose CSV, JSON lines or Parquet files, or a .zip of them, to read them: "
    f"{rollouts.MAX_BYTES // 2**20} MB at most in all. A larger file is marked in red above "
    "and never sent."
)
"""What the page says before a file is chosen (Streamlit refuses a file over the server's
maxUploadSize, .streamlit/config.toml, in the browser, and says so only in a tooltip)."""
ROLES = ("step", "prompt", "completion", "group", "advantage")


@dataclass(frozen=True)
class Upload:
    """The chosen log's files (name, bytes), their SHA-256 (the cache key), where from."""

    files: tuple[tuple[str, bytes], ...]
    digest: str
    sample: bool


def chosen_log(source: str, uploads) -> Upload | None:
    """The sample log, or the uploaded files after the app's own size check (None if none).

    uploads: the file uploader's list of files (several steps of one run, or a .zip)."""
    if source == "sample":
        data = content.path(SAMPLE).read_bytes()
        return Upload(((SAMPLE, data),), hashlib.sha256(data).hexdigest(), True)
    upload.warm()  # the reader's process starts while a file is chosen
    if not uploads:
        return None
    size = sum(u.size for u in uploads)
    if size > rollouts.MAX_BYTES:
        raise LogError(
            f"The files hold {size / 2**20:.0f} MB; the limit is "
            f"{rollouts.MAX_BYTES / 2**20:.0f} MB. Upload a few steps of the log."
        )
    files = tuple((u.name, u.getvalue()) for u in uploads)
    digest = hashlib.sha256()
    for name, data in files:
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return Upload(files, digest.hexdigest(), False)


READ_KEEP = 2
"""Logs ``read`` keeps (per mapping): one read lately costs no budget again."""


def spend_for(chosen: Upload) -> None:
    """A log this server has not read lately spends the ``LOG`` budget of this address and of
    everyone (OverBudget past either); the sample log costs nothing."""
    if chosen.sample or client.done_lately("log", chosen.digest):
        return
    client.spend(limits.LOG)
    client.remember("log", chosen.digest, READ_KEEP)


@st.cache_resource(max_entries=READ_KEEP, show_spinner="Reading the log…")
def read(digest: str, _files, mapping: ColumnMap | None) -> LoadedLog:
    """``log_files.load_logs`` once per (files, mapping), in the upload worker's child
    process (a crash or a bomb there is a LogError here); the digest stands for the bytes.
    A resource, not data: the 10^6-row table is shared, never pickled again (read-only)."""
    return upload.isolated(log_files.load_logs, list(_files), mapping)


@dataclass(frozen=True, eq=False)
class Summary:
    groups: LogGroups
    steps: pd.DataFrame
    totals: dict
    worst: pd.DataFrame
    effects: pd.DataFrame
    fit: ConventionFit | None
    aggregation: pd.DataFrame | None


@st.cache_resource(max_entries=2, show_spinner="Summarising…")
def summarise(digest: str, mapping: ColumnMap, _frame: pd.DataFrame) -> Summary:
    """Everything the page shows about one log, computed once per (file, mapping)."""
    groups = log_groups(_frame)
    fit = None
    reward_columns = [c for c in _frame.columns if c.startswith("reward.")]
    if "advantage" in _frame:
        steps = _frame["step"].to_numpy()[groups.order]
        per_function = _frame[reward_columns].to_numpy()[groups.order] if reward_columns else None
        advantages = _frame["advantage"].to_numpy()[groups.order]
        fit = fit_conventions(groups, steps, advantages, per_function)
    aggregation = None
    if reward_columns:
        names = [c.removeprefix("reward.") for c in reward_columns]
        order = groups.order
        aggregation = compare_aggregations(
            _frame[reward_columns].to_numpy()[order],
            groups.codes,
            names=names,
            batch_ids=_frame["step"].to_numpy()[order],  # TRL's GDPO: per generation batch
        )
    return Summary(
        groups,
        step_summary(groups),
        log_totals(groups),
        worst_groups(groups),
        method_effects(groups),
        fit,
        aggregation,
    )


def mapping_controls(log: LoadedLog, digest: str) -> ColumnMap:
    """A selectbox per role, the reward and ignored columns, and K; starts from the
    detected mapping and returns the mapping chosen (equal to it when nothing changed)."""
    options = [None, *log.columns]
    cols = st.columns(3)
    chosen = {}
    for i, role in enumerate(ROLES):
        detected = getattr(log.mapping, role)
        chosen[role] = cols[i % 3].selectbox(
            role,
            options,
            index=options.index(detected) if detected in options else 0,
            format_func=lambda c: "(none)" if c is None else c,
            key=f"tl.map.{digest[:12]}.{role}",
        )
    left, right = st.columns(2)
    rewards = left.multiselect(
        "reward columns (summed, or normalised then summed)",
        list(log.columns),
        default=list(log.mapping.rewards),
        key=f"tl.map.{digest[:12]}.rewards",
    )
    ignored = right.multiselect(
        "ignored columns (not read)",
        list(log.columns),
        default=list(log.mapping.ignored),
        key=f"tl.map.{digest[:12]}.ignored",
    )
    size = _size_control(log, digest)
    picked = tuple(rewards) != log.mapping.rewards or log.mapping.chosen
    return ColumnMap(
        rewards=tuple(rewards),
        ignored=tuple(ignored),
        group_size=size,
        chosen=picked,
        **chosen,
    )


def _size_control(log: LoadedLog, digest: str) -> int | None:
    """K chosen by hand (None: as inferred; 0 infers it again)."""
    if log.grouping.how == log_grouping.BY_COLUMN:
        return None
    inferred = log.grouping.size or 0
    k = st.number_input(
        "Answers per group, K: blocks of K consecutive rows in each step (0: infer K)",
        min_value=0,
        max_value=state.MAX_K * 64,
        value=inferred,
        step=1,
        key=f"tl.map.{digest[:12]}.k",
    )
    if k == inferred and log.mapping.group_size is None:
        return None
    return int(k) if k else None


def show_roles(log: LoadedLog, container) -> None:
    """Each column of the file and its role (reward, extra, ignored, or step, prompt, ...)."""
    roles = pd.DataFrame({"column": list(log.roles), "role": list(log.roles.values())})
    container.dataframe(roles, hide_index=True, key="tl.roles", width="stretch")


def grouping_words(log: LoadedLog) -> str:
    """How the rows were grouped, in words."""
    g = log.grouping
    if g.how == log_grouping.BY_COLUMN:
        return f"Groups: rows sharing a step and a `{log.mapping.group}` value."
    if g.how == log_grouping.BY_TEXT:
        return (
            "Groups: rows sharing a step and a prompt text (the rows of one prompt are not "
            "consecutive, so K was not inferred from their order)."
        )
    how = "inferred from the runs of equal prompt text" if g.inferred else "chosen by hand"
    check = {
        True: " These blocks reproduce the logged advantages.",
        False: " These blocks do not reproduce the logged advantages (see below).",
        None: "",
    }[g.reproduces]
    return (
        f"Groups: blocks of **K = {g.size}** consecutive rows in each step, as TRL's sampler "
        f"orders them (K {how}; change it under Columns). The prompt text only checks them."
        f"{check}"
    )


def show_notes(notes) -> None:
    """Warnings from the loader, with any text from the file escaped."""
    for note in notes:
        st.warning(markdown_safe(note))


def open_buttons(groups: list[np.ndarray], *, key: str, settings: dict | None = None) -> None:
    """Buttons that open ``groups`` (rewards of up to 8 prompts, up to 64 answers each) in
    the playground and the walkthrough; ``settings`` are playground URL-style parameters
    (c, ddof, eps, scale)."""
    too_big = len(groups) > state.MAX_PROMPTS or max(len(g) for g in groups) > state.MAX_K
    left, right = st.columns(2)
    for column, file, label in (
        (left, "playground", "Open in the playground"),
        (right, "walkthrough", "Open in the walkthrough"),
    ):
        if column.button(label, key=f"{key}.{file}", disabled=too_big, width="stretch"):
            _set_rewards(groups, settings or {})
            st.switch_page(nav.page(file), query_params=present.link_params())
    if too_big:
        st.caption(f"Too large for the playground ({state.MAX_K} answers at most).")


def _set_rewards(groups: list[np.ndarray], settings: dict) -> None:
    width = max(len(g) for g in groups)
    state.set_grid([[shortest(float(r)) for r in g] + [""] * (width - len(g)) for g in groups])
    s = st.session_state
    s["settings.convention"] = settings.get("c", "trl")
    custom = {k: settings[k] for k in ("ddof", "eps", "scale") if k in settings}
    s["settings.custom"] = bool(custom)
    if custom:
        s["settings.ddof"] = int(custom.get("ddof", 1))
        s["settings.eps"] = custom.get("eps", "0.0001")
        s["settings.scale"] = custom.get("scale", "group")
        s["settings.clip"] = ""
