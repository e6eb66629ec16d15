"""A real model's group: SmolLM2-135M answers K times, a verifier grades, one real GRPO step."""

import streamlit as st

from grpo_core import real_tasks
from realmodel import groups
from ui import controls, log_view, page
from ui import real_model_page as rm
from ui.figures import real_model as figures
from ui.figures.common import show

page.start()
st.title("A real model's group")
st.markdown(
    "GRPO begins with a model answering the same prompt K times. Here a real one does: "
    "SmolLM2-135M-Instruct (Apache-2.0), on this server's CPU. A rule-based verifier grades "
    "each answer, the group's rewards become advantages, and one real gradient step pushes "
    "the good answers up and the bad ones down, measured on the model's own log-probabilities."
)

live = rm.live_enabled()
svc = rm.model_service()
provenance, shipped = rm.committed()
if not live:
    st.info(
        "Live sampling is off on this server: the model's extra (CPU torch, transformers, gguf "
        "and the model file) is not installed. Below are real groups the project sampled with "
        "`scripts/sample_real_groups.py`. To sample live, start the app with "
        "`python3 dev.py run --with-model`."
    )

# 1. The group ------------------------------------------------------------------------------
st.subheader("1 · The group")
modes = ["saved", "live"] if live else ["saved"]
mode = st.segmented_control(
    "Answers",
    modes,
    default="saved",
    required=True,
    key="rm.mode",
    format_func={"saved": "Saved real groups", "live": "Sample live"}.get,
    bind="query-params",
)
group, delta = None, None
if mode == "saved":
    labels = [g.task.label for g in shipped]
    chosen = st.selectbox(
        "Task",
        range(len(shipped)),
        format_func=labels.__getitem__,
        key="rm.saved",
        bind="query-params",
    )
    group = shipped[chosen]
    delta = groups.step_delta(group)
    st.caption(rm.provenance_caption(provenance))
else:
    svc.start_loading()
    loading = st.empty()
    if svc.error:
        loading.error(svc.error)
    elif svc.loaded is None:
        loading.info(
            "The model is loading in the background (half a minute to a minute); the saved "
            "groups work meanwhile, and a sample you ask for now starts once it is ready."
        )
    presets = [t.label for t in real_tasks.TASKS] + ["Type your own"]
    pick = st.selectbox(
        "Task",
        range(len(presets)),
        format_func=presets.__getitem__,
        key="rm.task",
        bind="query-params",
    )
    try:
        if pick < len(real_tasks.TASKS):
            task = real_tasks.TASKS[pick]
        else:
            own = st.text_input(
                "Prompt",
                max_chars=real_tasks.MAX_PROMPT_CHARS,
                key="rm.prompt",
                placeholder="What is 2 + 2? Answer with a number.",
            )
            c1, c2 = st.columns(2)
            kind = c1.selectbox("Check", real_tasks.KINDS, key="rm.kind")
            expected = c2.text_input("Expected answer", max_chars=40, key="rm.expected")
            task = real_tasks.checked_task(own, expected, kind)
    except ValueError as error:
        st.warning(str(error))
        task = None
    c1, c2, c3 = st.columns(3)
    bound = {"bind": "query-params"}
    k = c1.slider("K answers", *rm.K_RANGE, value=8, key="rm.k", **bound)
    temperature = c2.slider("Temperature", 0.1, 1.5, value=0.8, step=0.1, key="rm.temp", **bound)
    seed = int(c3.number_input("Seed", 0, 10_000, value=0, step=1, key="rm.seed", **bound))
    if task is not None:
        st.text(f"Prompt: {task.prompt}\nExpected ({task.kind}): {task.expected}")
    if st.button("Sample K answers", type="primary", disabled=task is None, key="rm.sample"):
        st.session_state["rm.group"] = rm.sample_live(task, k, seed, temperature)
        st.session_state.pop("rm.delta", None)
        if svc.loaded is not None:
            loading.empty()  # loaded while this run waited for it
    group = st.session_state.get("rm.group")
    if group is None:
        st.caption(f"Each answer is up to {rm.MAX_NEW_TOKENS} new tokens; drawn together.")
        rm.share_caption(live=True)
        controls.share_link()
        st.stop()
    delta = st.session_state.get("rm.delta")

rm.group_table(group)
log_view.open_buttons([group.rewards], key="rm.open")

# 2. One real GRPO step ---------------------------------------------------------------------
st.subheader("2 · One real GRPO step")
st.markdown(
    "Each answer token's log-probability is computed, then the loss exactly as the policy-loss "
    'lab computes it (`grpo_core.loss`, TRL\'s default `loss_type="dapo"`, transcribed to '
    "torch for autograd and tested equal). One SGD step follows (learning rate "
    f"{rm.LR:g}), then every answer's sequence log-probability is computed again through the "
    "new weights. Those sit beside the model's and are dropped afterwards: the model itself "
    "is never changed, so no one's step reaches anyone else."
)
if group.rewards.std() == 0:
    st.info(
        "Every answer got the same reward: every advantage is 0 and the step pushes nothing. "
        "Try another seed or a higher temperature."
    )
elif mode == "live" and st.button("Take one real GRPO step", key="rm.step"):
    delta = rm.step_live(group)
    st.session_state["rm.delta"] = delta
elif mode == "saved" and delta is not None:
    st.caption(f"Recorded when the group was sampled (learning rate {group.step['lr']:g}).")
if delta is not None:
    st.markdown(rm.moved_sentence(delta, group.advantages))
    show(figures.delta_figure(group.advantages, delta), key="rm.delta_fig")

# 3. A few steps ----------------------------------------------------------------------------
if mode == "live" and task is not None:
    st.subheader("3 · A few steps")
    st.markdown(
        f"Sample a group, take a step on it, sample a fresh group from the new weights, and so "
        f"on for {rm.CURVE_STEPS} steps (learning rate {rm.CURVE_LR:g}): the pass rate after "
        "each step, drawn as it comes. The steps change the model's own weights while the "
        "run holds the queue; when it ends, the shipped weights are put back from a verified "
        "copy, so the next demonstration starts from the model as shipped."
    )
    settings = (task, k, seed, temperature)
    if st.button(f"Run {rm.CURVE_STEPS} steps", key="rm.curve"):
        ran = rm.curve_live(*settings)
        if ran:  # a run refused by the rate limit keeps the last curve on screen
            st.session_state["rm.points"] = settings, ran
    ran, points = st.session_state.get("rm.points", (None, None))
    if points and ran == settings:
        st.markdown(rm.curve_sentence(points))
        rm.draw_curve(points, key="rm.curve_fig")

st.divider()
rm.share_caption(live=mode == "live")
controls.share_link()
