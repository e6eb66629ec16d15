"""Concepts of the GRPO follow-ups, each with the words that say it, shared by every key point.

A key point's phrasing ``@name`` stands for every phrasing of the concept ``name``
(``CONCEPTS``): the words a candidate may use for one idea ("up-weighted", "amplified",
"blown up", "inflated" are one concept), so a word learnt for one point serves every point
that needs the concept, and a point's list cannot miss a synonym another point knows.
Each concept is a statement about the domain's words, never about one answer.

Phrasing syntax as in ``practice.followup_phrase``: ``*`` ends a word with any ending, ``..``
stands for up to four words. Inflections come from the stemmer and irregular verbs from
``practice.followup_text`` ("blew up" is "blow up"), so a concept lists a word once.
"""

from __future__ import annotations

import functools

__all__ = ["CONCEPTS", "expand"]


def _phrasings(text: str) -> tuple[str, ...]:
    """The phrasings of ``text``, separated by "|" (written as prose lines, wrapped freely)."""
    return tuple(" ".join(p.split()) for p in text.split("|"))


CONCEPTS: dict[str, tuple[str, ...]] = {
    # made to weigh more than it should
    "amplify": _phrasings(
        """up-weight* | amplif* | blow* up | blow* .. up | inflat* | magnif* | boost* |
        exaggerat* | over-emphasiz* | overemphasiz* | over-weight* | overweight* |
        more weight | weigh* more | weighted more | heavier weight | larger weight |
        bigger weight | stretch* | scale* up | rescal* up | enlarg* | over-represent* |
        overrepresent* | over-count* | overcount* | pump* up | puff* up |
        become* large | become* larger | become* bigger | get* large | get* larger |
        get* bigger | grow* large |
        favor* |
        scale* .. up"""
    ),
    # a group whose rewards differ widely (the opposite of low_spread)
    "high_spread": _phrasings(
        """larger spread* | wider spread* | bigger spread* | more spread | high spread |
        large spread | big spread | wide spread | larger .. spread | bigger .. spread |
        wider .. spread | large .. spread | big .. spread | high .. spread | high-spread |
        high variance | high-variance | large variance | big variance | more variance |
        larger variance | larger std | bigger std | large std | high std | wide range |
        wide-range | larger range | bigger range | wider range | wide reward* | wider reward* |
        diverse reward* | spread out | vary a lot | varies a lot | widely"""
    ),
    # made to weigh less than it did
    "attenuate": _phrasings(
        """down-weight* | less weight | weigh* less | weighted less | smaller weight |
        lower weight | under-weight* | underweight* | de-emphasiz* | deemphasiz* |
        matter less | contribut* less | suppress* | dampen* | damp* |
        reduc* the weight | reduc* .. weight | smaller advantage* | lower advantage* |
        shrink* the |
        get* .. shrunk"""
    ),
    # a group whose rewards barely differ
    "low_spread": _phrasings(
        """low spread | small spread | tiny spread | little spread | narrow spread |
        low .. spread | small .. spread | tiny .. spread | little .. spread |
        low variance | small variance | tiny variance | little variance |
        low .. variance | small .. variance | tiny .. variance | little .. variance |
        small std | tiny std | low std | small .. std | tiny .. std | low .. std |
        std is tiny | std is small | std is near 0 | std close to 0 | std near 0 |
        barely vary | hardly vary | barely differ | hardly differ | varies little |
        vary little | barely varies | hardly varies | near-uniform | nearly uniform |
        almost uniform | near-constant | nearly constant | almost constant |
        near-identical | nearly identical | almost identical | almost the same |
        nearly the same | tightly clustered | close together | saturated |
        nearly solved | nearly impossible | almost always right | almost always wrong |
        almost always correct | mostly correct | mostly wrong | almost all | nearly all |
        almost every | nearly every | all but one | all agree | mostly agree |
        close to 0 or 1 | near 0 or 1 | too easy | too hard | easy or hard | easy and hard |
        little disagreement | unanimous | near-unanimous | almost unanimous | nearly unanimous |
        near-solved | near solved | near-impossible | near impossible | 1-out-of |
        1 out of 8 | 1 out of 16 | one out of 8 | one out of 16 | 1 in 8 | 1 in 16 |
        one in 8 | one in 16 | 7 out of 8 | 15 out of 16"""
    ),
    # every answer of a group with the same outcome
    "all_same": _phrasings(
        """all pass | all fail | pass or all fail | all answers pass | all correct |
        all incorrect | all wrong | all right | all succeed | all 1 | all ones |
        all 0 | all zeros | all-1 | all-0 | every answer | every sample | every completion |
        every rollout | all answers | all samples | all completions | all rollouts |
        solves every | fails every | fail every | always solves | never solves |
        always solved | never solved | always right | always wrong | always correct |
        every time | each time | 100% | 0% | saturated | too easy | too hard"""
    ),
    # every group on one scale
    "same_scale": _phrasings(
        """same scale | one scale | common scale | unit scale | unit variance | unit spread |
        comparable | same footing | same size | similar size | similar sized |
        similar magnitude | same magnitude | same range | z-score | scale-free |
        scale-invariant | scale invariance | invariant to | insensitive to |
        regardless of | no matter | independent of the scale | around 1 | order 1 |
        order of 1 | o(1) | equally | same weight | similar weight | roughly the same |
        approximately the same | more or less the same | around one | order one |
        std 1 | std of 1 | unit std | variance 1 | variance of 1 | equal vote | equal say |
        equal weight | count* equally | equal footing"""
    ),
    # one prompt's updates outweigh the others'
    "dominate": _phrasings(
        """dominat* | swamp* | drown* out | overwhelm* | outweigh* | overpower* |
        drown* .. out | take* over"""
    ),
    # a spread at or near zero
    "near_zero": _phrasings(
        """near 0 | close to 0 | is 0 | std of 0 | 0 std | ->0 | goes to 0 | go to 0 |
        approaches 0 | tends to 0 | zero spread | tiny std | std is tiny | small std |
        vanish* | collaps* |
        std=0 | std≈0 | std~0"""
    ),
    # what a division by zero gives (said or denied: "eps avoids a 0/0")
    "division_hazard": _phrasings(
        """!0/0 | !0 by 0 | !nan | !divid* by 0 | !division by 0 | !0 divided by |
        !infinit* | !inf | !undefined | !explod* | !blow* up | !overflow* | !crash*"""
    ),
    # the same advantage for every token of an answer
    "one_for_all": _phrasings(
        """same advantage | one advantage | single advantage | one scalar advantage |
        same value | same number | same scalar | one scalar | one value | one number |
        single scalar | single value | same a_i | gets a_i | uses a_i | shares | share* one |
        share* the same | inherit* | broadcast* | copied | constant over | constant across |
        sequence-level | per-sequence | the answer's advantage | the response's advantage |
        the completion's advantage | the sequence's advantage | becomes the advantage |
        one per completion | one per answer | one per response | one per sequence |
        one per sample | one advantage per"""
    ),
    # a wrong answer
    "wrong": _phrasings(
        """wrong | incorrect | negative* | bad | failed | failing | erroneous | low-reward |
        below-average"""
    ),
    # let off lightly
    "lenient": _phrasings(
        """less | lightly | smaller | cheaper | cheap | weaker | watered down | dilut* |
        attenuat* | under-penaliz* | underpenaliz* | penaliz* least | barely punished |
        not punished much | aren't penaliz* as much | not penaliz* as much |
        isn't penaliz* as much | not punished as much | hide | hides | escape* |
        get* away | off the hook | spread over more | spreads | thinner"""
    ),
    # hit harder (the opposite of lenient)
    "harsh": _phrasings(
        """stronger | harsher | heavier | harder | more heavily | over-penaliz* |
        overpenaliz* | penaliz* more | punish* more | bigger penalty | larger penalty"""
    ),
    # a baseline without the scored answer's own reward
    "excludes_own": _phrasings(
        """exclud* | leave-one-out | leave one out | leaving one out | leaves .. out |
        leaving .. out | left out | doesn't include | does not include | not includ* |
        never includ* | doesn't use | does not use | not using | doesn't count |
        not counting | without itself | except itself | other than itself | j != i | j≠i"""
    ),
    # how many answers a prompt gets
    "count": _phrasings(
        """k | g | n | several | multiple | many | a group of | group of | a bunch of | a few |
        some | lots of | a handful of | a set of | a batch of | 2 | 4 | 5 | 6 | 8 | 10 | 12 | 16 |
        32 | 64"""
    ),
    # one prompt's sampled answers
    "samples": _phrasings(
        """answers | completions | responses | samples | outputs | rollouts |
        generations | candidates | attempts | solutions | trajectories | sequences |
        continuations"""
    ),
    # the update learns nothing from it
    "no_signal": _phrasings(
        """no signal | no gradient | zero gradient | 0 gradient | gradient is 0 |
        gradient of 0 | 0 gradients | no learning | no learning signal |
        no policy-gradient | no reward signal | no information | no useful |
        nothing to learn | no update | no contribution |
        contribut* nothing | contribut* 0 | 0 contribution | carr* no | no effect |
        nothing useful | uninformative | useless | without signal | no push |
        don't push | does not push | doesn't push | no direction | add* 0 |
        no .. gradient | don't add* | doesn't add* | do not add* | does not add* | add* no |
        does nothing | do nothing | doing nothing"""
    ),
    # left as it was
    "unchanged": _phrasings(
        """unchanged | unaffected | stay* the same | remain* the same | untouched |
        not affected | not touched | aren't touched | left alone | not changed |
        aren't changed | unmodified | not modified | doesn't touch | don't touch |
        does not touch | doesn't change | don't change | does not change |
        do not change | same as before | as they were | as before | stay exactly |
        not altered | unaltered"""
    ),
    # becomes fewer or smaller
    "shrink": _phrasings(
        """shrink* | reduc* | decreas* | fall* | drop* | smaller | fewer | goes down |
        go down | cut* | lower* | diminish* | dwindl*"""
    ),
    # not the same from step to step
    "vary": _phrasings(
        """varies | vary | variab* | fluctuat* | changing | changes | inconsistent |
        unpredictabl* | random | jump* around | from batch to batch |
        from step to step | each step | every step"""
    ),
    # what a computation costs
    "cost": _phrasings(
        """cost* | price | expensive | extra | pay* | overhead | slower |
        more expensive | budget"""
    ),
    # what sampling spends
    "generation": _phrasings(
        """generation | generat* | sampling | samples | rollouts | rollout | compute |
        time | inference | throughput | wall-clock | gpu | flops"""
    ),
    # what is left of a number after rounding
    "noise": _phrasings(
        """noise | jitter | rounding | round-off | roundoff | rounding error* | garbage |
        artifact* | quantiz* | precision loss | meaningless | random"""
    ),
    # a learned estimate of the return
    "critic": _phrasings(
        """critic | value model | value network | value net | value function |
        value head | value estimator | value estimate*"""
    ),
    # each answer on its own
    "each_answer": _phrasings(
        """each answer | each response | each sequence | each completion | each sample |
        each output | each rollout | each generation | each sampled | per answer |
        per response | per sequence | per completion | per sample | per output |
        per rollout | per trajectory | per-answer | per-response | per-sequence |
        per-sample | per-completion | its own | each answer's | each response's |
        that response | that answer | that completion"""
    ),
}
"""Concept name -> its phrasings (lower case, the grader's syntax)."""


def expand(phrasings: tuple[str, ...]) -> tuple[str, ...]:
    """``phrasings`` with every ``@name`` replaced by the concept's phrasings, in order,
    each phrasing once. ValueError for an unknown concept (a bank's error) or for anything
    but a tuple of text."""
    if not isinstance(phrasings, tuple) or not all(isinstance(p, str) for p in phrasings):
        raise ValueError("phrasings must be a tuple of text.")
    return _expand(phrasings)


@functools.lru_cache(maxsize=4096)
def _expand(phrasings: tuple[str, ...]) -> tuple[str, ...]:
    out: dict[str, None] = {}
    for phrase in phrasings:
        if phrase.startswith("@"):
            name = phrase[1:]
            if name not in CONCEPTS:
                known = ", ".join(sorted(CONCEPTS))
                raise ValueError(f"@{name} is not a concept of the lexicon ({known}).")
            out.update(dict.fromkeys(CONCEPTS[name]))
        else:
            out[phrase] = None
    return tuple(out)
