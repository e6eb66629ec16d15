"""grpo_core.loss_reference (one token at a time) against the vectorised grpo_core.loss."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core.loss import LOSS_TYPES, policy_loss
from grpo_core.loss_reference import reference_policy_loss


def random_batch(rng, B, T):
    old = -rng.uniform(0.01, 5.0, (B, T))
    logp = np.minimum(old + rng.normal(0, rng.uniform(0.05, 1.5), (B, T)), 0.0)
    ref = np.minimum(old + rng.normal(0, 0.3, (B, T)), 0.0)
    lengths = rng.integers(0, T + 1, B)
    mask = (np.arange(T)[None, :] < lengths[:, None]).astype(float)
    return logp, old, rng.normal(0, 1.5, B), mask, ref


@given(
    seed=st.integers(0, 2**32 - 1),
    loss_type=st.sampled_from(LOSS_TYPES),
    level=st.sampled_from(["token", "sequence"]),
    beta=st.sampled_from([0.0, 0.04, 0.5]),
    corrected=st.booleans(),
    delta=st.sampled_from([None, 1.1, 2.0]),
    eps=st.tuples(st.floats(0.0, 0.5), st.floats(0.0, 0.5)),
)
@settings(max_examples=300, deadline=None)
def test_vectorised_equals_the_reference(seed, loss_type, level, beta, corrected, delta, eps):
    rng = np.random.default_rng(seed)
    logp, old, adv, mask, ref = random_batch(rng, int(rng.integers(1, 6)), int(rng.integers(1, 8)))
    options = {
        "loss_type": loss_type,
        "importance_sampling_level": level,
        "epsilon_low": eps[0],
        "epsilon_high": eps[1] + (1.0 if loss_type == "cispo" else 0.0),
        "delta": delta,
        "beta": beta,
        "ref_logp": ref,
        "use_bias_correction_kl": corrected,
        "max_completion_length": 8,
    }
    got = policy_loss(logp, old, adv, mask, **options)
    loss, grad = reference_policy_loss(logp, old, adv, mask, **options)
    assert got.loss == pytest.approx(loss, rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(got.grad, grad, rtol=1e-12, atol=1e-12)


def test_reference_reads_lists():
    loss, grad = reference_policy_loss([[-1.0, -2.0]], [[-1.0, -2.0]], [1.0], [[1, 0]])
    assert loss == -1.0 and grad == [[-1.0, 0.0]]
