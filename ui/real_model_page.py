"""The real-model page's parts: the process's model service, the session's rate limit,
sampling and stepping with a visible queue and progress, and the group's table.

Prompts and answers are shown as text (tables and st.text), never as markdown or HTML.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import streamlit as st

from grpo_core import real_tasks
from grpo_core.format import fmt, plural
from practice import limits
from realmodel import curve, groups, model, service, step
from ui import client
from ui.figures import real_model as figures
from ui.figures.common import show

K_RANGE = (2, 16)
MAX_NEW_TOKENS = 48
LR = 1e-4
CURVE_STEPS, CURVE_LR = curve.STEPS, curve.LR


def live_enabled() -> bool:
    """The extra is installed and GRPO_REAL_MODEL is not "off" (the saved-groups mode)."""
    return os.environ.get("GRPO_REAL_MODEL", "").lower() != "off" and model.available()


@st.cache_resource(show_spinner=False)
def model_service() -> service.ModelService:
    """One service per server process; ``start_loading`` loads its model in the background
    the first time a reader chooses live sampling."""
    return service.ModelService()


@st.cache_data(show_spinner=False)
def committed() -> tuple[dict, list[groups.RealGroup]]:
    return groups.load_committed()


def rate_limit() -> service.RateLimit:
    """This session's limit: 6 jobs a minute."""
    return st.session_state.setdefault("rm.rate", service.RateLimit())


def provenance_caption(p: dict) -> str:
    versions = ", ".join(f"{k} {v}" for k, v in p["versions"].items())
    return (
        f"Sampled by {p['script']} on {p['date']} from {p['model_file']} "
        f"(sha256 {p['model_sha256'][:16]}…), {p['sampling']}; {versions}."
    )


def group_table(group: groups.RealGroup) -> None:
    """The K answers with reward, advantage and the verifier's reason, as plain text cells."""
    frame = pd.DataFrame(
        {
            "#": range(1, len(group.answers) + 1),
            "answer": list(group.answers),
            "reward": group.rewards,
            "advantage": group.advantages.round(3),
            "verifier": [v.reason for v in group.verdicts],
        }
    )
    st.dataframe(frame, hide_index=True, width="stretch", key="rm.table")
    right = int(group.rewards.sum())
    st.caption(
        f"{right} of {plural(len(group.answers), 'answer')} right. Advantages as TRL's default: "
        "(R − group mean) / (sample std + 1e-4)."
    )


def moved_sentence(delta: np.ndarray, advantages: np.ndarray) -> str:
    """'N of K moved in the direction of their advantage', from the numbers."""
    moved, counted = step.moved_with_advantage(delta, advantages)
    if counted == 0:
        return "Every advantage is 0: the step has no signal, and nothing is pushed."
    return (
        f"{moved} of {counted} answers with a nonzero advantage moved in the direction of their "
        f"advantage (largest change {fmt(float(np.max(np.abs(delta))))} nats)."
    )


def _wait(svc: service.ModelService, ticket: int, note) -> None:
    ahead = svc.position(ticket)
    if ahead:
        note.info(f"Waiting: {ahead} ahead of you. One generation or step runs at a time.")
    elif svc.loaded is None and svc.error is None:
        note.info("Waiting for the model to finish loading.")


def _allowed(cost: int = 1) -> bool:
    """May this session run ``cost`` jobs now (its own limit, then the ``MODEL`` budget of
    its address and of everyone, which a reload does not reset)? If not, say how long to wait."""
    wait = rate_limit().wait_seconds(cost)
    if wait > 0:
        st.warning(f"Too many runs in a minute: try again in {int(wait) + 1} s.")
        return False
    return client.allowed(limits.MODEL, cost=cost)


def _run(svc: service.ModelService, job, note, cost: int = 1):
    """``job`` in the queue, its wait shown in ``note``. Its ``cost`` jobs count against the
    session's limit from the moment it ends (or is cut short), so a run longer than the
    limit's window cannot let the next one straight through."""
    ticket = svc.ticket()
    _wait(svc, ticket, note)
    try:
        return svc.run(ticket, job, on_wait=lambda ahead: _wait(svc, ticket, note))
    finally:
        rate_limit().record(cost)


def sample_live(task: real_tasks.Task, k: int, seed: int, temperature: float):
    """The group for these settings, from the cache or sampled now with a progress bar."""
    svc = model_service()
    key = (task.prompt, task.expected, task.kind, k, seed, temperature)
    hit = svc.cached(key)
    if hit is not None or not _allowed():
        return hit
    note, bar = st.empty(), st.progress(0.0, text=f"0 of {k} answers")

    done: list[int] = []

    def arrived(i: int, ids: list[int]) -> None:
        note.empty()
        done.append(i)
        bar.progress(len(done) / k, text=f"{len(done)} of {k} answers: answer {i + 1} is in")

    def job(loaded: model.Loaded):
        ids = model.sample_answers(
            loaded,
            task.prompt,
            k,
            seed=seed,
            temperature=temperature,
            max_new_tokens=MAX_NEW_TOKENS,
            on_answer=arrived,
        )
        texts = tuple(model.decode(loaded, a) for a in ids)
        return groups.RealGroup(
            task, texts, seed, temperature, MAX_NEW_TOKENS, tuple(map(tuple, ids))
        )

    try:
        group = _run(svc, job, note)
    except RuntimeError as error:
        st.error(str(error))
        return None
    finally:
        bar.empty()
    svc.remember(key, group)
    return group


def step_live(group: groups.RealGroup) -> np.ndarray | None:
    """Δ log p of one real step on ``group`` (the model itself is never written), or None.

    Cached per (prompt, answers' tokens, advantages, temperature, lr), as groups are: the
    step is the same computation on the same numbers, so a room pressing it on the same
    group waits for one step, not one each."""
    svc = model_service()
    key = (
        "step",
        group.task.prompt,
        group.token_ids,
        tuple(group.advantages.tolist()),
        group.temperature,
        LR,
    )
    hit = svc.cached(key)
    if hit is not None or not _allowed():
        return hit
    note = st.empty()
    try:
        with st.spinner("One GRPO step: log-probs, loss, backward, SGD, log-probs again…"):
            result = _run(
                svc,
                lambda loaded: step.grpo_step(
                    loaded,
                    group.task.prompt,
                    [list(t) for t in group.token_ids],
                    group.advantages,
                    temperature=group.temperature,
                    lr=LR,
                ),
                note,
            )
    except RuntimeError as error:
        st.error(str(error))
        return None
    note.empty()
    svc.remember(key, result.delta)
    return result.delta


def curve_live(task: real_tasks.Task, k: int, seed: int, temperature: float):
    """A few steps on ``task`` with the pass rate drawn live, or None; it counts as one job
    per group it samples against the session's limit, and holds the queue while it runs."""
    if not _allowed(CURVE_STEPS + 1):
        return None
    svc = model_service()
    note, chart = st.empty(), st.empty()
    bar = st.progress(0.0, text=f"Group 1 of {CURVE_STEPS + 1}: sampling")
    points: list[curve.CurvePoint] = []

    def arrived(point: curve.CurvePoint) -> None:
        note.empty()
        points.append(point)
        done = len(points)
        bar.progress(
            done / (CURVE_STEPS + 1),
            text=f"Group {done} of {CURVE_STEPS + 1}: {point.right} of {k} right",
        )
        draw_curve(points, key=f"rm.curve.live.{done}", container=chart)

    def job(loaded: model.Loaded):
        return curve.few_steps(
            loaded,
            task,
            k,
            steps=CURVE_STEPS,
            seed=seed,
            temperature=temperature,
            lr=CURVE_LR,
            max_new_tokens=MAX_NEW_TOKENS,
            on_point=arrived,
        )

    try:
        return _run(svc, job, note, CURVE_STEPS + 1)
    except RuntimeError as error:
        st.error(str(error))
        return None
    finally:
        bar.empty()
        chart.empty()


def draw_curve(points: list[curve.CurvePoint], *, key: str, container=None) -> None:
    """The pass-rate curve of ``points`` so far."""
    steps = tuple(p.steps_taken for p in points)
    right = tuple(p.right for p in points)
    fig = figures.curve_figure(steps, right, points[0].k)
    show(fig, key=key, container=container)


def curve_sentence(points: list[curve.CurvePoint]) -> str:
    """What the few steps did, from the points."""
    k = points[0].k
    counts = " → ".join(f"{p.right}" for p in points)
    taken = points[-1].steps_taken
    moved = sum(p.moved or 0 for p in points)
    counted = sum(p.counted or 0 for p in points)
    skipped = sum(1 for p in points[:-1] if p.counted is None)
    parts = [
        f"Right answers out of {k}, group by group: {counts}, after "
        f"{plural(taken, 'step')} (learning rate {CURVE_LR:g})."
    ]
    if counted:
        parts.append(
            f"In the steps, {moved} of {counted} answers with a nonzero advantage moved in "
            "the direction of their advantage."
        )
    if skipped:
        parts.append(
            f"{plural(skipped, 'group')} had one reward for every answer: no signal, so no step."
        )
    parts.append(
        "Each point is one fresh group of K, a small sample: a change of an answer or two "
        "can be chance alone. The model is back to its shipped weights."
    )
    return " ".join(parts)


def share_caption(*, live: bool) -> None:
    """What this page's link carries."""
    if live:
        st.caption(
            "This view's link: the task, K, temperature and seed (a prompt you typed stays "
            "out of it). Opened, it shows these settings; the same seed draws the same answers."
        )
    else:
        st.caption("This view's link opens the same saved group.")
