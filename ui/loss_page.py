"""What the "From advantage to update" page needs besides its figures: where the group comes
from (a preset, the playground, the walkthrough), the loss controls, cached computations,
captions and the CSV."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from content.citations import cite
from grpo_core import loss_lab
from grpo_core.csv_safe import frame_csv
from grpo_core.format import fmt, signed
from grpo_core.loss import AGGREGATION, CLIP_LOSS_TYPES, IS_LEVELS, LOSS_TYPES, policy_loss
from grpo_core.verifier import grade, load_worked_example, verifier_reward
from ui import prose, state
from ui.figures import critic as critic_figures

SOURCES = {
    "preset": "A preset",
    "playground": "The playground's group",
    "walkthrough": "The walkthrough's",
}
REMEMBER = {"max_entries": 256, "show_spinner": False}
KL_DEMO_BETA = 0.04
"""β of the KL section while the loss's own β is 0: TRL's default before v0.19."""
DAPO_EPSILON_HIGH = 0.28
"""DAPO's ε high, the other side of the Clip-Higher comparison when ε high = ε low."""


def text(name: str) -> str:
    """A section of content/policy_loss.md, its claim links pointing at their sources."""
    return cite(prose.section("policy_loss.md", name))


def loss_help(loss_type: str) -> str:
    """The line of content/policy_loss.md's "loss-types" section on ``loss_type``."""
    for line in text("loss-types").splitlines():
        if line.startswith(f"- **{loss_type}**: "):
            return line.removeprefix(f"- **{loss_type}**: ")
    return ""


def bound(key: str, help: str | None = None) -> dict:
    """A widget's key, its help and its place in the share link."""
    return {"key": key, "help": help, "bind": "query-params"}


# --- the group ---------------------------------------------------------------------------


def playground_group() -> tuple[tuple[float, ...], str] | None:
    """The playground's first prompt with at least two rewards, or None. The toy group
    numbers its answers 1..K; where the grid's rows differ (a cell left out) ``where`` says
    which rows they are."""
    parsed = state.parsed_rewards()
    for p, (group, rows) in enumerate(zip(parsed.groups, parsed.answers, strict=True), start=1):
        if len(group) >= 2:
            group, rows = group[: loss_lab.MAX_ANSWERS], rows[: loss_lab.MAX_ANSWERS]
            where = f"the playground's prompt {p}"
            if rows != list(range(1, len(rows) + 1)):
                where += f" (its answers {', '.join(map(str, rows))}, here 1 to {len(rows)})"
            return tuple(group), where
    return None


@st.cache_data(show_spinner=False)
def _worked_example():
    return load_worked_example()


def walkthrough_group() -> tuple[tuple[float, ...], str]:
    """The walkthrough's real problem, graded as the walkthrough grades it now."""
    example = _worked_example()
    s = st.session_state
    strict, bonus = bool(s.get("wt.strict", True)), float(s.get("wt.bonus", 0.0))
    rewards = []
    for answer in example.answers:
        g = grade(answer.text, example.reference, format_bonus=bonus, strict=strict)
        correct = s.get(f"wt.rg.{strict}.{answer.id}", g.correct)
        rewards.append(verifier_reward(correct, g.well_formatted, format_bonus=bonus))
    return tuple(rewards), "the walkthrough's eight graded answers"


def group_picker() -> tuple[tuple[float, ...], tuple[int, ...], str]:
    """(rewards, token counts, where they came from) as the reader chose."""
    left, right = st.columns([3, 2], vertical_alignment="bottom")
    source = (
        left.segmented_control(
            "Start from",
            SOURCES,
            default="preset",
            required=True,
            **bound("pl.source"),
        )
        or "preset"
    )
    preset = right.selectbox(
        "Preset",
        list(loss_lab.PRESETS),
        disabled=source != "preset",
        **bound("pl.preset"),
    )
    if source == "playground" and (found := playground_group()):
        rewards, origin = found
    elif source == "walkthrough":
        rewards, origin = walkthrough_group()
    else:
        if source == "playground":
            st.info("The playground has no prompt with two rewards yet: showing the preset.")
        title, rewards, lengths = loss_lab.PRESETS[preset]
        return tuple(float(r) for r in rewards), lengths, f"the preset “{title}”"
    return rewards, loss_lab.default_lengths(len(rewards)), origin


@st.cache_resource(**REMEMBER)
def batch(
    rewards: tuple, lengths: tuple, step: float, seed: int, edits: tuple = ()
) -> loss_lab.ToyBatch:
    """The toy batch of a group, with the probabilities set by hand (``edits``) applied."""
    toy = loss_lab.toy_batch(rewards, lengths, step=step, seed=seed)
    return loss_lab.with_probabilities(toy, edits) if edits else toy


def hand_edits(toy: loss_lab.ToyBatch, group: tuple) -> tuple:
    """An editor of every token's p_old and p_new (in an expander); returns the cells the
    reader changed as (answer, token, p_old, p_new). A new group starts a fresh editor."""
    table = pd.DataFrame(loss_lab.probabilities_table(toy))
    with st.expander("Enter the probabilities by hand"):
        st.caption(
            "Change p_old (when sampled) or p_new (after the step) of any token; the link "
            "keeps the group and settings, not these cells."
        )
        edited = st.data_editor(
            table,
            key=f"pl.hand_{abs(hash(group)) % 10**12}",
            hide_index=True,
            disabled=["answer", "token"],
            column_config={
                "p_old": st.column_config.NumberColumn("p_old", format="%.4f"),
                "p_new": st.column_config.NumberColumn("p_new", format="%.4f"),
            },
            width="stretch",
        )
    changed = (edited[["p_old", "p_new"]] != table[["p_old", "p_new"]]).any(axis=1)
    rows = edited[changed]
    return tuple(
        (
            int(r.answer),
            int(r.token),
            None if pd.isna(r.p_old) else float(r.p_old),
            None if pd.isna(r.p_new) else float(r.p_new),
        )
        for r in rows.itertuples()
    )


# --- the loss ----------------------------------------------------------------------------


def loss_controls() -> dict:
    """The loss options as policy_loss takes them."""
    c1, c2, c3 = st.columns(3)
    loss_type = c1.selectbox(
        "loss_type",
        LOSS_TYPES,
        index=LOSS_TYPES.index("dapo"),
        **bound("pl.loss_type"),
    )
    c1.caption(loss_help(loss_type))
    level = c2.radio(
        "importance_sampling_level",
        IS_LEVELS,
        horizontal=True,
        **bound("pl.level", "sequence: one ratio per answer, GSPO's"),
    )
    beta = c3.slider("β (KL in the loss)", 0.0, 0.5, 0.0, 0.01, **bound("pl.beta"))
    corrected = c3.toggle(  # under β, in a column wide enough for TRL's option name
        "KL × ratio (use_bias_correction_kl)",
        value=True,
        disabled=beta == 0,
        **bound("pl.kl_corr"),
    )
    c1, c2, c3 = st.columns(3)
    cispo = loss_type == "cispo"
    eps_low = c1.slider("ε low", 0.0, 0.5, 0.2, 0.01, disabled=cispo, **bound("pl.eps_low"))
    if cispo:  # TRL's epsilon_high is then the cap on the weight itself (ScaleRL: 5)
        eps_high = c2.slider(
            "ε high: CISPO's weight cap", 1.0, 10.0, 5.0, 0.5, **bound("pl.cispo_cap")
        )
    else:
        eps_high = c2.slider(
            "ε high",
            0.0,
            0.5,
            0.2,
            0.01,
            **bound("pl.eps_high", "Clip-Higher (DAPO): ε high > ε low"),
        )
    use_delta = c3.toggle("Two-sided cap δ", value=False, **bound("pl.use_delta"))
    delta = c3.slider("δ", 1.05, 5.0, 2.0, 0.05, disabled=not use_delta, **bound("pl.delta"))
    return {
        "loss_type": loss_type,
        "importance_sampling_level": level,
        "epsilon_low": float(eps_low),
        "epsilon_high": float(eps_high),
        "delta": float(delta) if use_delta else None,
        "beta": float(beta),
        "use_bias_correction_kl": bool(corrected),
    }


@st.cache_resource(**REMEMBER)
def loss_of(group: tuple, *, on_policy: bool = False, **options):
    """policy_loss on the toy batch of ``group`` = (rewards, lengths, step, seed, edits), at
    step 0 (logp = old_logp) when ``on_policy``; options as ``loss_controls`` gives them."""
    toy = batch(*group)
    logp = toy.old_logp if on_policy else toy.logp
    return policy_loss(
        logp,
        toy.old_logp,
        toy.advantages,
        toy.mask,
        ref_logp=toy.ref_logp,
        max_completion_length=loss_lab.MAX_TOKENS,
        **options,
    )


TRL_DEFAULTS = {
    "loss_type": "dapo",
    "importance_sampling_level": "token",
    "epsilon_low": 0.2,
    "epsilon_high": 0.2,
    "delta": None,
    "beta": 0.0,
    "use_bias_correction_kl": True,
}
"""GRPOConfig's defaults in TRL 1.16, the baseline of the "what changed" sentence."""


def changed_options(options: dict) -> list[str]:
    """The options that differ from TRL's defaults, as 'name value'."""
    return [
        f"{name} {value}"
        for name, value in options.items()
        if value != TRL_DEFAULTS[name]
        and not (name == "use_bias_correction_kl" and not options["beta"])
    ]


def clip_range(options: dict) -> tuple[float, float]:
    """[1 - ε low, 1 + ε high], the colour bar's marks on the ratio map."""
    return 1 - options["epsilon_low"], 1 + options["epsilon_high"]


def other_epsilon_high(eps: tuple[float, float]) -> float:
    """The ε high to compare with: symmetric (= ε low) under Clip-Higher, else DAPO's."""
    return eps[0] if eps[1] != eps[0] else DAPO_EPSILON_HIGH


def clip_higher_setting(options: dict) -> tuple[dict, str]:
    """The options Clip-Higher is shown with, and a sentence saying how they differ from
    ``options``: token level (Clip-Higher acts on single tokens) and a loss type with a
    clip range (dapo's, at TRL's ε high, when the chosen one has none)."""
    base = {**options, "importance_sampling_level": "token"}
    notes = []
    if options["loss_type"] not in CLIP_LOSS_TYPES:
        base |= {"loss_type": "dapo", "epsilon_high": TRL_DEFAULTS["epsilon_high"]}
        notes.append(f"{options['loss_type']} has no clip range, so this is dapo's")
    if options["importance_sampling_level"] == "sequence":
        notes.append("it is at token level, where Clip-Higher acts on single tokens")
    return base, ("(" + "; ".join(notes) + ".) ") if notes else ""


def signed_maps(result) -> dict[str, tuple]:
    """The two signed maps, each with its own symmetric colour range: push on log p
    (−grad) and the per-token loss, (values, limit) by name."""
    real = result.weight > 0
    push = -result.grad
    return {
        "push": (push, critic_figures.colour_limit(push[real])),
        "loss": (result.per_token, critic_figures.colour_limit(result.per_token[real])),
    }


def kl_sums(k: dict) -> dict[str, np.ndarray]:
    """Each estimator summed over each answer's tokens (padding is 0): (K,) by name."""
    return {name: values.sum(axis=1) for name, values in k.items()}


def kl_bars_caption(sums: dict[str, np.ndarray]) -> str:
    """The bars' key numbers: each estimator's total, and the answers whose k1 sum is < 0."""
    totals = ", ".join(f"{name} {fmt(values.sum())}" for name, values in sums.items())
    below = [str(i) for i, v in enumerate(sums["k1"], 1) if v < 0]
    return (
        f"Grouped bars per answer: k1 (solid), k2 (hatched /), k3 (dotted), each summed over "
        f"the answer's tokens. Totals: {totals}. "
        + (f"k1 is negative for answer {', '.join(below)}." if below else "No k1 sum is negative.")
    )


def kl_table(toy: loss_lab.ToyBatch, k: dict, beta: float) -> pd.DataFrame:
    """Per answer: summed k1, k2 and k3, the reward, and the reward with β·Σk1 taken out."""
    return pd.DataFrame(
        {
            "answer": range(1, len(toy.rewards) + 1),
            "k1 sum": k["k1"].sum(axis=1),
            "k2 sum": k["k2"].sum(axis=1),
            "k3 sum": k["k3"].sum(axis=1),
            "reward": toy.rewards,
            f"reward − {fmt(beta)}·Σk1": loss_lab.kl_in_reward(
                toy.rewards, k["k1"], toy.mask, beta
            ),
        }
    )


def row_labels(toy: loss_lab.ToyBatch) -> tuple[str, ...]:
    return tuple(f"#{i} A {signed(a)}" for i, a in enumerate(toy.advantages, 1))


# --- captions and the table --------------------------------------------------------------


def group_caption(toy: loss_lab.ToyBatch, origin: str, step: float) -> str:
    return (
        f"{len(toy.rewards)} answers from {origin}: rewards "
        + ", ".join(fmt(r) for r in toy.rewards)
        + "; advantages (TRL's convention) "
        + ", ".join(signed(a) for a in toy.advantages)
        + f"; {int(toy.mask.sum())} tokens in all. After the step (η = {fmt(step)}) each "
        "sampled token's logit moved by η·A."
    )


def heatmaps_caption(result, options: dict, maps: dict, clipped: str) -> str:
    kind = options["loss_type"]
    return (
        f"Rows are answers (their advantage in the label), columns tokens; blank cells are "
        f"padding. {kind}: {AGGREGATION[kind]}. Loss {fmt(result.loss)}; {clipped}. "
        f"Push on log p (−∂loss/∂log p): + raises the token, − lowers it, colour range "
        f"±{fmt(maps['push'][1])}; per-token loss ±{fmt(maps['loss'][1])}."
    )


@st.cache_resource(**REMEMBER)
def token_table_and_csv(group: tuple, **options) -> tuple[pd.DataFrame, bytes]:
    """``token_table`` of the group under ``options``, and its CSV (computed once)."""
    table = token_table(batch(*group), loss_of(group, **options))
    return table, frame_csv(table)


def token_table(toy: loss_lab.ToyBatch, result) -> pd.DataFrame:
    """One row per real token: what the heatmaps show, for the CSV."""
    rows = []
    for i in range(len(toy.rewards)):
        for t in range(int(toy.lengths[i])):
            rows.append(
                {
                    "answer": i + 1,
                    "token": t + 1,
                    "reward": toy.rewards[i],
                    "advantage": toy.advantages[i],
                    "old_logp": toy.old_logp[i, t],
                    "logp": toy.logp[i, t],
                    "ratio": result.ratio[i, t],
                    "region": ("free", "low", "high", "delta")[result.clip[i, t]],
                    "per_token_loss": result.per_token[i, t],
                    "weight": result.weight[i, t],
                    "push_on_logp": -result.grad[i, t],
                    "kl_term": result.kl[i, t],
                }
            )
    return pd.DataFrame(rows)
