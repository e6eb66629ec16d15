"""What the walkthrough shows besides its steps: moving between steps, and the real math
problem's eight written answers graded by a verifier, each regradable by hand."""

from __future__ import annotations

import streamlit as st

import content
from content.citations import cite
from grpo_core import advantage_trace
from grpo_core.advantages import AdvantageTrace
from grpo_core.conventions import CONVENTIONS
from grpo_core.format import fmt, signed
from grpo_core.sentences import step_values
from grpo_core.verifier import WorkedExample, grade, load_worked_example, verifier_reward
from ui import state

STEPS = content.read_toml("walkthrough.toml")["step"]


def step_text(
    step: int, trace: AdvantageTrace, g: int, answer: int, prompt: str, numbers=None
) -> str:
    """Step ``step``'s words for answer ``answer`` of prompt ``g`` (shown as its number in
    ``numbers``, as ``step_values``), numbers filled in and
    claims linked: the convention's own text where walkthrough.toml has one (nemo-rl,
    reinforce-pp, with their own scaling), else the step's text (at step 5, the variants
    for no division and for eps = 0)."""
    words, conv = STEPS[step - 1], trace.convention
    own = words.get("by_convention", {}).get(conv.name)
    if own and conv.name in CONVENTIONS and CONVENTIONS[conv.name].scale == conv.scale:
        text = own["text"]
    elif step == 5 and conv.scale == "none":
        text = words["text_no_scale"]
    elif step == 5 and conv.eps == 0:
        text = words["text_eps_zero"]
    else:
        text = words["text"]
    ddof_words = (
        "K − 1 (sample std, ddof=1, as torch.std)" if conv.ddof else "K (population std, ddof=0)"
    )
    values = step_values(trace, g, answer, numbers)
    return cite(text.format(**values, prompt=prompt, convention=conv.name, ddof_words=ddof_words))


def answer_choices(rewards, numbers=None) -> list[str]:
    """The "Answer to follow" choices: "answer 3 (reward 1)", by the answers' ``numbers``
    (the grid's rows, where a cell left out keeps its number), 1..K when None."""
    numbers = range(1, len(rewards) + 1) if numbers is None else numbers
    return [f"answer {n} (reward {fmt(r)})" for n, r in zip(numbers, rewards, strict=True)]


def sum_caption(trace: AdvantageTrace, g: int) -> str:
    """The step-6 caption: the group's advantage sum, 0 up to rounding unless each answer
    had its own divisor (nemo-rl) or a clip moved the batch mean (reinforce-pp)."""
    total = trace.group_sums(g)[1]
    own_divisor = trace.convention.scale == "leave-one-out"
    shifted = trace.convention.scale == "whiten" and trace.clamped.any()
    why = (
        "each answer had its own divisor"
        if own_divisor
        else "the clip moved the batch mean"
        if shifted
        else "0 up to rounding"
    )
    return f"Sum of the advantages: {fmt(total)} ({why})."


def go_to(step: int) -> None:
    st.session_state["wt.step"] = min(max(step, 1), len(STEPS))


STEP_BUTTONS_CSS = """
<style>
  .st-key-wt-prev kbd, .st-key-wt-next kbd { display: none; }
</style>
"""
"""The step buttons' labels carry their arrow keys ("← Previous", "Next →"); Streamlit's
shortcut badge repeated them ("← Previous ←"). The tooltip still names the key."""


def step_buttons_style() -> None:
    st.html(STEP_BUTTONS_CSS)


TO_THE_SLIDE = """<script>
document.activeElement?.blur();
document.querySelector('[data-testid="stMain"]')?.scrollTo({top: 0, behavior: 'smooth'});
</script>"""


def back_to_the_slide(source: str) -> None:
    """Presenting: when the rewards to follow change (chosen under the slide), scroll back
    up to the slide and take the focus off the choice. The focused choice kept the arrow
    keys: → after choosing "A real math problem" did not step, and the slide was off screen."""
    if st.session_state.get("wt.source_shown", source) != source:
        st.html(TO_THE_SLIDE, unsafe_allow_javascript=True, width="content")
    st.session_state["wt.source_shown"] = source


PHONE_NEXT_CSS = """
<style>
  .st-key-wt-next-below { display: none; }
  @media (max-width: 640px) {
    .st-key-wt-next { display: none; }
    .st-key-wt-next-below { display: block; }
  }
</style>
"""
"""On a phone the step's columns stack: its Next moves from above the step to after it."""


def next_below(step: int) -> None:
    """The Next button after the step's content, shown instead of the top one on a phone
    (so the learner reads on without scrolling back up); hidden on wider screens."""
    st.html(PHONE_NEXT_CSS)
    with st.container(key="wt-next-below"):
        st.button(
            "Next →",
            key="wt.next_below",
            on_click=go_to,
            args=(step + 1,),
            disabled=step == len(STEPS),
            type="primary",
            width="stretch",
        )


@st.cache_data
def load_example() -> WorkedExample:
    return load_worked_example()


def real_example(example: WorkedExample, settings: state.Settings) -> AdvantageTrace:
    """The problem, the verifier's options, and one card per answer; returns the group's trace."""
    st.markdown(f"**The problem.** {example.problem}")
    strict_col, bonus_col = st.columns(2)
    strict = strict_col.toggle(
        "Strict verifier: only a last line `Answer: <number>` counts",
        value=True,
        key="wt.strict",
        bind="query-params",
    )
    bonus = bonus_col.select_slider(
        "Format bonus for a well-formatted answer",
        [0.0, 0.05, 0.1, 0.2, 0.5],
        key="wt.bonus",
        bind="query-params",
    )
    grades = [
        grade(a.text, example.reference, format_bonus=bonus, strict=strict) for a in example.answers
    ]
    st.caption(
        f"The reference answer is {example.reference}. Tick or untick **correct** to regrade an "
        "answer by hand and watch every advantage in the group move."
    )
    correct = [
        st.session_state.get(f"wt.rg.{strict}.{a.id}", g.correct)
        for a, g in zip(example.answers, grades, strict=True)
    ]
    rewards = [
        verifier_reward(c, g.well_formatted, format_bonus=bonus)
        for c, g in zip(correct, grades, strict=True)
    ]
    trace = advantage_trace(rewards, **settings.kwargs())
    columns = st.columns(2)
    for i, (answer, g) in enumerate(zip(example.answers, grades, strict=True)):
        a = trace.advantages[i]
        tint = "blue" if a > 0 else "orange" if a < 0 else "gray"
        verdict = "pushed up ↑" if a > 0 else "pushed down ↓" if a < 0 else "unchanged"
        with columns[i % 2].container(border=True):
            st.markdown(
                f"**Answer {answer.id}** · reward {fmt(rewards[i])} · "
                f":{tint}-background[A = {signed(a)}, {verdict}]"
            )
            st.checkbox("correct", value=g.correct, key=f"wt.rg.{strict}.{answer.id}")
            st.code(answer.text.strip(), language=None, wrap_lines=True)
            read = "no answer line" if g.extracted is None else f"read {g.extracted}"
            formatted = "well formatted" if g.well_formatted else "not in the required format"
            st.caption(f"Verifier: {read}, {formatted}. {answer.note}")
    return trace
