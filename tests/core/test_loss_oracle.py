"""grpo_core.loss against TRL 1.16: a torch transcription of its loss lines (autograd for the
gradient), and that transcription against TRL's real ``GRPOTrainer._compute_loss``."""

import itertools

import numpy as np
import pytest

from grpo_core.loss import CLIP_LOSS_TYPES, LOSS_TYPES, policy_loss

pytest.importorskip("torch")
from tests.core.trl_loss_oracle import trl_loss, trl_method_loss

TOL = 1e-6  # the bar, float64
# sapo: TRL's torch.where(advantages > 0, 1.0, 1.05) makes the temperatures float32 tensors
# (torch's default dtype for Python scalars), so 1.05 is 1.0499999523: about 3e-8 apart.
LEVELS = ("token", "sequence")


def batch(seed: int, B: int = 6, T: int = 9, spread: float = 0.3):
    """Log-probs (<= 0) with ratios spread around 1, uneven lengths, one empty row, a zero
    advantage, and a reference policy."""
    rng = np.random.default_rng(seed)
    old = -rng.uniform(0.02, 4.0, (B, T))
    logp = np.minimum(old + rng.normal(0, spread, (B, T)), 0.0)
    ref = np.minimum(old + rng.normal(0, 0.2, (B, T)), 0.0)
    lengths = rng.integers(1, T + 1, B)
    lengths[1] = 0  # an all-zero mask row
    mask = (np.arange(T)[None, :] < lengths[:, None]).astype(float)
    adv = rng.normal(0, 1, B)
    adv[2] = 0.0
    return logp, old, adv, mask, ref


def options(loss_type, level, *, beta=0.0, corrected=True, delta=None, eps=(0.2, 0.28)):
    return {
        "loss_type": loss_type,
        "importance_sampling_level": level,
        "epsilon_low": eps[0],
        "epsilon_high": 5.0 if loss_type == "cispo" else eps[1],
        "delta": delta,
        "beta": beta,
        "use_bias_correction_kl": corrected,
        "max_completion_length": 12,
    }


def assert_matches(got, loss, grad):
    assert got.loss == pytest.approx(loss, abs=TOL)
    np.testing.assert_allclose(got.grad, grad, atol=TOL, rtol=0)


@pytest.mark.parametrize(
    ("loss_type", "level", "beta", "corrected", "delta"),
    list(itertools.product(LOSS_TYPES, LEVELS, (0.0, 0.04), (True, False), (None, 1.25))),
)
@pytest.mark.parametrize("seed", [0, 1])
def test_matches_trl_transcription(loss_type, level, beta, corrected, delta, seed):
    logp, old, adv, mask, ref = batch(seed)
    opts = options(loss_type, level, beta=beta, corrected=corrected, delta=delta)
    assert_matches(
        policy_loss(logp, old, adv, mask, ref_logp=ref, **opts),
        *trl_loss(logp, old, adv, mask, ref_logp=ref, **opts),
    )


@pytest.mark.parametrize("loss_type", CLIP_LOSS_TYPES)
@pytest.mark.parametrize("eps", [(0.2, 0.2), (0.1, 0.28), (0.3, 0.05)])
def test_asymmetric_clip_and_far_ratios_match_trl(loss_type, eps):
    logp, old, adv, mask, _ = batch(3, B=8, T=12, spread=1.0)  # many tokens clipped
    opts = options(loss_type, "token", eps=eps, delta=1.5)
    got = policy_loss(logp, old, adv, mask, **opts)
    assert got.clip_fraction.region > 0.1
    assert_matches(got, *trl_loss(logp, old, adv, mask, **opts))


def test_on_policy_ties_match_trl():
    # r = 1 exactly: torch's min ties and gives each side half the gradient.
    logp, _, adv, mask, _ = batch(4)
    for loss_type in LOSS_TYPES:
        opts = options(loss_type, "token")
        assert_matches(
            policy_loss(logp, logp, adv, mask, **opts), *trl_loss(logp, logp, adv, mask, **opts)
        )


# --- the transcription against TRL's own method -------------------------------------------


@pytest.mark.parametrize("loss_type", LOSS_TYPES)
@pytest.mark.parametrize("level", LEVELS)
def test_transcription_is_trls_method(loss_type, level):
    """TRL's real _compute_loss, called on a stand-in self (no model, no hub): same loss,
    same gradient, and its logged clip metrics are policy_loss's clip_fraction."""
    logp, old, adv, mask, ref = batch(5, spread=0.8)
    opts = options(loss_type, level, beta=0.04, delta=1.5)
    loss, grad, metrics = trl_method_loss(logp, old, adv, mask, ref_logp=ref, **opts)
    t_loss, t_grad = trl_loss(logp, old, adv, mask, ref_logp=ref, **opts)
    assert loss == pytest.approx(t_loss, abs=1e-12)
    np.testing.assert_allclose(grad, t_grad, atol=1e-12, rtol=0)

    got = policy_loss(logp, old, adv, mask, ref_logp=ref, **opts)
    assert_matches(got, loss, grad)
    if loss_type in CLIP_LOSS_TYPES:
        assert got.clip_fraction.low == pytest.approx(metrics["clip_ratio/low_mean"])
        assert got.clip_fraction.high == pytest.approx(metrics["clip_ratio/high_mean"])
        assert got.clip_fraction.region == pytest.approx(metrics["clip_ratio/region_mean"])
    elif loss_type == "cispo":
        assert got.clip_fraction.high == pytest.approx(metrics["cispo_clip_ratio"])
    assert metrics["kl"] == pytest.approx(got.kl.sum() / mask.sum())  # TRL's logged KL


def test_trl_version_is_pinned():
    import torch
    import trl

    assert trl.__version__ == "1.16.0"
    assert torch.__version__.startswith("2.13.0")
