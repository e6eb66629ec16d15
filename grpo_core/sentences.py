"""Generated explanations: sentences that read out numbers the engine computed.

Each function here turns numbers from the math modules into plain words, so what
a page says always matches what it shows: ``describe_group`` (one prompt of an
AdvantageTrace), ``explain_differences`` (why the conventions disagree on these
rewards), ``explain_difficulty_bias`` (GRPO's weight on too-easy and too-hard
prompts) and ``precision_summary`` (what float32 did to a group). No math is
defined here: every number comes from ``advantages``, ``compare``, ``binary``,
``eps`` or ``precision``.
"""

from __future__ import annotations

import math

import numpy as np

from grpo_core import _checks
from grpo_core.advantages import AdvantageTrace, advantage_trace, group_advantages
from grpo_core.binary import binary_advantages, dr_grpo_binary_advantages, std_weight
from grpo_core.compare import compare_conventions
from grpo_core.conventions import CONVENTIONS
from grpo_core.eps import LIBRARY_EPS, REGIME_FACTOR
from grpo_core.format import fmt, plural
from grpo_core.precision import PrecisionReport


def describe_group(trace: AdvantageTrace, g: int, numbers=None) -> str:
    """One sentence on what the update does with prompt ``g``'s answers.

    numbers: the answers' numbers as the reader sees them, one per member of the group in
    the order of ``trace.members(g)`` (a grid's rows, where a cell left out keeps its
    number); None numbers them 1..K.
    """
    idx = trace.members(g)
    numbers = _checks.answer_numbers(numbers, len(idx))
    adv = trace.advantages.ravel()[idx]
    rewards = trace.rewards.ravel()[idx]
    if trace.singleton[g]:
        if trace.convention.singleton == "pass-through":
            return (
                "Only one answer: verl uses mean 0 and std 1, so the raw reward "
                f"{fmt(rewards[0])} passes through as the advantage {fmt(adv[0])}."
            )
        return "Only one answer: there is nothing to compare it with, so its advantage is 0."
    if trace.zero_spread[g]:
        return (
            f"All {len(idx)} answers scored {fmt(rewards[0])}: no answer beats its group, "
            "every advantage is 0, and this prompt teaches nothing this step."
        )
    top = np.flatnonzero(adv == adv.max())
    bottom = np.flatnonzero(adv == adv.min())
    n_up, n_down = int((adv > 0).sum()), int((adv < 0).sum())
    centred = trace.centred.ravel()[idx][top[0]]
    baseline = "leave-one-out baseline" if trace.convention.baseline != "mean" else "mean"
    if trace.convention.scale == "group" and trace.std[g] > 0:
        how_far = f"{fmt(centred / trace.std[g], 3)} std above the group's {baseline}"
    else:
        how_far = f"{fmt(centred, 3)} above the group's {baseline}"
    sentence = (
        f"{_answers(top, numbers)} scored {how_far}: pushed up most (A = {fmt(adv[top[0]])}); "
        f"{_answers(bottom, numbers).lower()} pushed down most (A = {fmt(adv[bottom[0]])}). "
        f"{n_up} of {len(idx)} answers go up, {n_down} go down."
    )
    if trace.damped[g]:
        sentence += (
            f" The spread ({fmt(trace.std[g])}) is below eps ({fmt(trace.convention.eps)}), "
            "so eps damps these advantages toward 0."
        )
    if trace.clamped.ravel()[idx].any():
        sentence += f" Clipped to ±{fmt(trace.convention.clip)} (OpenRLHF's reward clip)."
    return sentence


def step_values(trace: AdvantageTrace, g: int, answer: int, numbers=None) -> dict[str, str]:
    """The numbers the walkthrough's step texts quote for answer ``answer`` (its position in
    ``trace.members(g)``) of prompt ``g``, formatted, by placeholder name
    (content/walkthrough.toml). numbers: as in ``describe_group``.

    Plain numbers: ``i`` (the answer's number, from ``numbers``), ``k``, ``k_minus_1``,
    ``prompts`` and ``answers`` (the batch), ``reward``, ``mean`` (the group mean),
    ``baseline`` (what is subtracted: the group mean or the mean of the other K-1),
    ``centred``, ``advantage``, ``advantage_sum`` (over the group), ``eps``, ``clip``,
    ``batch_std``. Clauses:
    ``others_std`` (the std NeMo-RL divides answer i by, or why it is 0), ``divided``
    (answer i's division, or that it was skipped), ``clip_note`` (whether OpenRLHF's reward
    clip cut answer i's centred value).
    """
    conv = trace.convention
    idx = trace.members(g)
    k, flat = len(idx), idx[answer]
    i = _checks.answer_numbers(numbers, k)[answer]
    centred = float(trace.centred.ravel()[flat])
    divisor = float(trace.divisor.ravel()[flat])
    advantage = float(trace.advantages.ravel()[flat])
    others_std = divided = ""
    if conv.scale == "leave-one-out":
        undivided = divisor == 1.0
        if k == 2:
            others_std = "undefined for the one other reward, and NeMo-RL sets it to 0"
        elif undivided:
            others_std = f"0, because the other {k - 1} rewards all agree"
        else:
            others_std = fmt(divisor - conv.eps)
        if undivided:
            divided = (
                f"Answer {i}'s others have no spread, so it is not divided: A = {fmt(advantage)}."
            )
        else:
            divided = (
                f"Answer {i}: {fmt(centred)} / ({fmt(divisor - conv.eps)} + {fmt(conv.eps)}) = "
                f"{fmt(advantage)}."
            )
    if conv.clip is None:
        clip_note = "no clip applies"
    elif trace.clamped.ravel()[flat]:
        clip_note = (
            f"answer {i}'s {fmt(centred)} is cut to {fmt(math.copysign(conv.clip, centred))}"
        )
    else:
        clip_note = f"answer {i}'s {fmt(centred)} lies inside ±{fmt(conv.clip)}, so it is kept"
    batch_std = trace.batch_std
    return {
        "i": str(i),
        "k": str(k),
        "k_minus_1": str(k - 1),
        "prompts": plural(len(trace.labels), "prompt"),
        "answers": plural(trace.rewards.size, "answer"),
        "reward": fmt(trace.rewards.ravel()[flat]),
        "mean": fmt(trace.mean[g]),
        "baseline": fmt(trace.baseline.ravel()[flat]),
        "centred": fmt(centred),
        "advantage": fmt(advantage),
        "advantage_sum": fmt(trace.group_sums(g)[1]),
        "eps": fmt(conv.eps),
        "clip": "none" if conv.clip is None else fmt(conv.clip),
        "batch_std": "none" if batch_std is None else fmt(batch_std),
        "others_std": others_std,
        "divided": divided,
        "clip_note": clip_note,
    }


def _answers(indices: np.ndarray, numbers: list[int]) -> str:
    """ "Answer 3" or "Answers 1, 3 and 4" (the answers' ``numbers`` at ``indices``),
    "5 answers" when many."""
    numbers = [str(numbers[i]) for i in indices]
    if len(numbers) == 1:
        return f"Answer {numbers[0]}"
    if len(numbers) > 4:
        return f"{len(numbers)} answers"
    return f"Answers {', '.join(numbers[:-1])} and {numbers[-1]}"


def explain_differences(rewards, *, group_size=None, group_ids=None) -> list[str]:
    """Plain-words sentences, computed from these rewards, on why the conventions differ.

    Covers what applies: groups of one (verl's pass-through), all-equal groups,
    the ddof factor sqrt(K/(K-1)), eps size, batch vs group scaling,
    OpenRLHF's clamp, Dr. GRPO's and RLOO's unscaled advantages. Each sentence
    ends with its library source from CONVENTIONS. Groups (``group_size`` or
    ``group_ids``, as in ``compare_conventions``) may differ in size, but either
    every group has one reward or every group has at least two (ValueError else).
    """
    grouping = {"group_size": group_size, "group_ids": group_ids}
    comparison = compare_conventions(rewards, **grouping)
    frame = comparison.frame
    zs = advantage_trace(rewards, convention="zscore", **grouping)
    src = {name: f" Source: {c.source}." for name, c in CONVENTIONS.items()}
    # Prompts are named 1..G in order, or by their group id when ids were given.
    names = [str(g + 1) for g in range(len(zs.labels))] if group_ids is None else zs.labels
    sentences: list[str] = []
    lone = zs.sizes == 1
    if lone.any() and not lone.all():
        raise ValueError(
            "some prompts have one reward and others several: compare groups of one "
            "on their own (most trainers refuse them), or give those prompts more answers."
        )

    if lone.all():
        refused = ", ".join(comparison.refusals)
        sentences.append(
            f"Groups of one (K=1): verl passes each lone reward through as R / (1 + "
            f"{CONVENTIONS['verl'].eps:g}) (mean 0, std 1), zscore and nemo-rl give 0, and "
            f"{refused} refuse it: with one answer there is nothing to compare." + src["verl"]
        )
        return sentences

    zero_spread = np.flatnonzero(zs.zero_spread)
    if zero_spread.size:
        which = _prompt_list(zero_spread, names)
        sentences.append(
            f"{which} all-equal rewards: every convention gives exactly 0 there, "
            "no learning signal."
        )
    if zero_spread.size == len(zs.labels):
        return sentences

    trl = advantage_trace(rewards, convention="trl", **grouping)
    spread = np.where(zs.zero_spread, -np.inf, trl.std)
    widest = int(np.argmax(spread))  # the group where eps matters least
    group_size = int(zs.sizes[widest])
    in_widest = np.ravel(zs.group_index) == widest
    i = int(np.flatnonzero(in_widest)[np.argmax(np.abs(np.ravel(zs.advantages)[in_widest]))])
    ratio = frame["zscore"].iloc[i] / frame["verl"].iloc[i]
    factor = math.sqrt(group_size / (group_size - 1))
    note = ""
    if abs(ratio / factor - 1) > 1e-3:
        note = (
            f" (here verl's eps {CONVENTIONS['verl'].eps:g} is not small against the std, "
            f"which pulls the ratio to {ratio:.4g}; eps aside it is exactly {factor:.4g})"
        )
    sentences.append(
        f"zscore's numbers are {ratio:.4g} times verl's: zscore divides by the population "
        f"std (ddof=0), verl, TRL and OpenRLHF by the sample std (ddof=1: torch.std in verl "
        "and OpenRLHF, Tensor.std or nanstd in TRL), "
        f"which is larger; at K={group_size} that scales every advantage by "
        f"sqrt({group_size}/{group_size - 1}) = {factor:.4g}{note}"
        f"{_other_sizes(zs.sizes, group_size)}." + src["verl"]
    )

    narrowest = int(np.argmin(np.where(zs.zero_spread, np.inf, trl.std)))
    std_min = float(trl.std[narrowest])
    in_narrow = np.ravel(zs.group_index) == narrowest
    largest = {
        name: float(np.abs(frame[name].to_numpy()[in_narrow]).max())
        for name in ("trl", "verl", "openrlhf")
    }
    eps_text = ", ".join(f"{lib} {LIBRARY_EPS[lib]:g}" for lib in LIBRARY_EPS)
    if std_min < REGIME_FACTOR * CONVENTIONS["trl"].eps:
        sentences.append(
            f"eps decides the numbers here: {_prompt_name(narrowest, names)} "
            f"has std {std_min:.3g}, not far above the eps values ({eps_text}). "
            f"Its largest |advantage| is {largest['trl']:.3g} in TRL, {largest['verl']:.3g} "
            f"in verl and {largest['openrlhf']:.3g} in OpenRLHF." + src["trl"]
        )
    else:
        change = np.abs(frame["trl"] - frame["verl"]).max() / np.abs(frame["verl"]).max()
        sentences.append(
            f"eps hardly matters here: every group's std (smallest {std_min:.3g}) is far above "
            f"the eps values ({eps_text}), so TRL's and verl's advantages differ by "
            f"{100 * change:.2g}% at most." + src["trl"]
        )

    batch = advantage_trace(rewards, convention="trl-batch", **grouping)
    if len(zs.labels) == 1:
        sentences.append(
            "With one prompt the batch is the group, so trl-batch equals trl." + src["trl-batch"]
        )
    else:
        live = np.flatnonzero(~zs.zero_spread)
        stds = ", ".join(f"{s:.3g}" for s in trl.std[live[:6]]) + (", ..." if live.size > 6 else "")
        factor = (trl.std[live] + CONVENTIONS["trl"].eps) / (
            batch.batch_std + CONVENTIONS["trl"].eps
        )
        sentences.append(
            f"trl-batch divides every group by the batch std {batch.batch_std:.3g} instead of "
            f"each group's own ({stds}): its advantages are {_span(factor)} times trl's, "
            "so prompts on a wider reward scale push harder." + src["trl-batch"]
        )

    clamp = CONVENTIONS["openrlhf"].clip
    ort = advantage_trace(rewards, convention="openrlhf", **grouping)
    n_clamped = int(ort.clamped.sum())
    if n_clamped:
        free = group_advantages(rewards, convention="openrlhf", clip=math.inf, **grouping)
        biggest = float(np.abs(np.ravel(free)).max())
        sentences.append(
            f"OpenRLHF's reward clip cut {plural(n_clamped, 'normalised reward')} to ±{clamp:g} "
            f"(the largest would have been {biggest:.3g}; its per-token KL penalty, added "
            "afterwards, is left out here)." + src["openrlhf"]
        )
    else:
        sentences.append(
            f"OpenRLHF's ±{clamp:g} reward clip did not bite: its largest |advantage| is "
            f"{np.abs(frame['openrlhf']).max():.3g}." + src["openrlhf"]
        )

    centred_max = np.abs(frame["dr-grpo"]).max()
    sentences.append(
        'dr-grpo (TRL scale_rewards="none", Dr. GRPO) does not divide by a std: its '
        f"advantages are R - mean in reward units (largest |A| {centred_max:.3g}), "
        "so groups with a wider spread push harder." + src["dr-grpo"]
    )
    nonzero = frame["dr-grpo"].to_numpy() != 0
    loo_ratio = frame["rloo"].to_numpy()[nonzero] / frame["dr-grpo"].to_numpy()[nonzero]
    sizes = np.ravel(zs.sizes[zs.group_index])[nonzero]
    factors = [(int(s), loo_ratio[sizes == s].mean()) for s in np.unique(sizes)]
    if len(factors) == 1:
        ((s, loo),) = factors
        factor_text = f"K/(K-1) = {s}/{s - 1} = {loo:.4g}"
    else:
        shown = ", ".join(f"{s}/{s - 1} = {loo:.4g} at K={s}" for s, loo in factors)
        factor_text = f"K/(K-1) for its prompt's K ({shown})"
    sentences.append(
        "rloo subtracts the mean of the other K-1 answers, which makes every advantage "
        f"{factor_text} times dr-grpo's R - mean (TRL's RLOOTrainer with beta = 0: it "
        "would first subtract a KL penalty from each reward)." + src["rloo"]
    )
    sentences += _leave_one_out_and_whitening(rewards, grouping, names, src)
    return sentences


def _leave_one_out_and_whitening(rewards, grouping, names, src) -> list[str]:
    """The nemo-rl and reinforce-pp sentences (groups of two or more rewards)."""
    nemo = advantage_trace(rewards, convention="nemo-rl", **grouping)
    undivided = int(np.sum(np.ravel(nemo.divisor) == 1.0))
    where = (
        f"{plural(undivided, 'answer')} whose siblings all agree "
        f"{'keeps' if undivided == 1 else 'keep'} Rᵢ minus the others' mean undivided"
        if undivided
        else "every answer's siblings differ here, so every answer is divided"
    )
    whiten = advantage_trace(rewards, convention="reinforce-pp", **grouping)
    clipped = " after clipping the centred rewards to ±10" if whiten.clamped.any() else ""
    return [
        "nemo-rl (NeMo-RL's default) compares each answer with the mean of the other K-1 "
        f"and divides by their std + 1e-6, but not where that std is 0: {where}; its "
        "advantages need not sum to zero." + src["nemo-rl"],
        "reinforce-pp (OpenRLHF's REINFORCE++-baseline) divides every group by one number, "
        f"the batch std of the group-centred rewards{clipped}, {whiten.batch_std:.3g}, "
        "so groups on a wider reward scale push harder." + src["reinforce-pp"],
    ]


def _other_sizes(sizes: np.ndarray, group_size: int) -> str:
    """ "; prompts with K=3, 5 get sqrt(3/2) = 1.225, ..." when group sizes differ."""
    others = [int(s) for s in np.unique(sizes) if s != group_size]
    if not others:
        return ""
    shown = ", ".join(f"sqrt({s}/{s - 1}) = {math.sqrt(s / (s - 1)):.4g} at K={s}" for s in others)
    return f"; prompts with another K get {shown}"


def explain_difficulty_bias(
    p_values=(0.05, 0.5, 0.95), *, ddof: int = 0, group_size=None
) -> list[str]:
    """Plain-words sentences, with numbers, on GRPO's bias toward too-easy and too-hard prompts.

    ddof, group_size: as in ``std_weight`` (ddof=1 needs group_size = K). With
    group_size, one more sentence gives the largest weight a group of K answers can
    get (one right or one wrong answer).
    """
    p = np.atleast_1d(_checks.probabilities(p_values)).ravel()
    mid = float(std_weight(0.5, ddof=ddof, group_size=group_size))
    if _checks.ddof(ddof) == 0:
        std_text, weight_text = "sqrt(p(1-p))", "1/sqrt(p(1-p))"
    else:
        k = _checks.whole(group_size, "group_size", minimum=2)  # K in the sentences
        std_text = f"sqrt(p(1-p) K/(K-1)) (sample std, ddof=1, K/(K-1) = {k}/{k - 1})"
        weight_text = "1/std"
    sentences = [
        f"With right/wrong rewards a group's std is {std_text}, where p is its pass rate. "
        f"GRPO divides by it, so each prompt's push is weighted by {weight_text}: "
        f"{mid:.3g} at p = 0.5, and without bound as p nears 0 (too hard) or 1 (too easy)."
    ]
    for q in p:
        if q in (0.0, 1.0):
            sentences.append(
                f"At p = {q:g} every answer is {'wrong' if q == 0 else 'right'}: "
                "no spread, advantages 0, no learning signal."
            )
            continue
        w = float(std_weight(q, ddof=ddof, group_size=group_size))
        correct, wrong = binary_advantages(q, ddof=ddof, group_size=group_size)
        dr_correct, dr_wrong = dr_grpo_binary_advantages(q)
        sentences.append(
            f"At p = {q:g} GRPO gives a right answer {correct:.3g} and a wrong one {wrong:.3g} "
            f"(weight {w:.3g}, {w / mid:.3g} times the weight at p = 0.5); Dr. GRPO gives "
            f"{dr_correct:.3g} and {dr_wrong:.3g}."
        )
    if group_size is not None:
        k = _checks.whole(group_size, "group_size", minimum=2)  # K in the sentences
        top = float(std_weight(1 / k, ddof=ddof, group_size=k))
        sentences.append(
            f"A group of K = {k} answers with any spread has p between 1/{k} and {k - 1}/{k}, "
            f"so the largest weight GRPO gives a group is {top:.3g} (one right or one wrong "
            f"answer), {top / mid:.3g} times the weight at p = 0.5."
        )
    sentences.append(
        "Dr. GRPO (arXiv 2503.20783) drops the std: every prompt's push is just R - mean, "
        "so prompts the model almost always or almost never solves are no longer up-weighted."
    )
    return sentences


def precision_summary(report: PrecisionReport, numbers=None) -> str:
    """One plain-words sentence of what float32 did to this group (``precision_report``);
    ``numbers``: the answers' numbers, one per reward (1..K if None)."""
    head = (
        f"Near {fmt(np.abs(report.rewards).max(), 6)}, float32 numbers are "
        f"{fmt(report.float32_spacing, 3)} apart"
    )
    if report.distinct_float32 < report.distinct_float64:
        n = report.distinct_float32
        head += (
            f": the {report.distinct_float64} different rewards become "
            f"{'one value' if n == 1 else f'{n} different values'} in float32"
        )
    largest = int(np.argmax(np.abs(report.advantages_float64)))
    a64 = report.advantages_float64[largest]
    a32 = report.advantages_float32[largest]
    if math.isnan(report.relative_error):
        tail = f"the float32 advantages are NaN (0/0) where float64 gives {fmt(a64)}"
    else:
        tail = (
            f"answer {_checks.answer_numbers(numbers, report.rewards.size)[largest]}'s "
            f"advantage is {fmt(a32)} in float32 and {fmt(a64)} "
            f"in float64 (relative error {fmt(report.relative_error, 2)})"
        )
    return f"{head}; {tail}."


def _span(x: np.ndarray) -> str:
    """ "a" or "a to b" for the range of ``x``, 3 significant digits."""
    low, high = f"{x.min():.3g}", f"{x.max():.3g}"
    return low if low == high else f"{low} to {high}"


def _prompt_name(g: int, names) -> str:
    return "the group" if len(names) == 1 else f"prompt {names[g]}"


def _prompt_list(groups: np.ndarray, names) -> str:
    if len(names) == 1:
        return "The group has"
    shown = [f"{names[g]}" for g in groups[:6]] + (["..."] if groups.size > 6 else [])
    verb = "have" if groups.size > 1 else "has"
    return f"{plural(groups.size, 'Prompt', with_count=False)} {', '.join(shown)} {verb}"
