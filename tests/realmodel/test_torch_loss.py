"""The torch transcription of grpo_core.loss equals the numpy version, loss and gradient."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (requirements-model.txt)")

from grpo_core.loss import CLIP_LOSS_TYPES, policy_loss  # noqa: E402
from realmodel.torch_loss import (  # noqa: E402
    policy_loss_torch,
    surrogate_torch,
    token_weights,
)


def batch(seed: int, b: int = 5, t: int = 7):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, t + 1, size=b)
    mask = (np.arange(t)[None, :] < lengths[:, None]).astype(float)
    old = -rng.exponential(1.5, size=(b, t))
    logp = -np.abs(old + rng.normal(0, 0.4, size=(b, t)))
    adv = rng.normal(0, 1, size=b)
    return logp, old, adv, mask


@pytest.mark.parametrize("loss_type", CLIP_LOSS_TYPES)
@pytest.mark.parametrize("level", ["token", "sequence"])
@pytest.mark.parametrize("seed", range(4))
def test_torch_loss_and_grad_equal_numpy(loss_type, level, seed):
    logp, old, adv, mask = batch(seed)
    opts = dict(
        loss_type=loss_type,
        importance_sampling_level=level,
        epsilon_low=0.2,
        epsilon_high=0.28,
        max_completion_length=7,
    )
    expected = policy_loss(logp, old, adv, mask, **opts)
    x = torch.tensor(logp, dtype=torch.float64, requires_grad=True)
    loss = policy_loss_torch(x, old, adv, mask, **opts)
    loss.backward()
    assert loss.item() == pytest.approx(expected.loss, abs=1e-10)
    np.testing.assert_allclose(x.grad.numpy(), expected.grad, atol=1e-10)


def test_on_policy_gradient_is_minus_advantage_over_tokens():
    logp, _, adv, mask = batch(9)
    x = torch.tensor(logp, dtype=torch.float64, requires_grad=True)
    policy_loss_torch(x, x.detach(), adv, mask, loss_type="dapo").backward()
    np.testing.assert_allclose(x.grad.numpy(), -adv[:, None] * mask / mask.sum(), atol=1e-12)


def test_other_loss_types_are_refused_plainly():
    logp, old, adv, mask = batch(0)
    with pytest.raises(ValueError, match="supports"):
        policy_loss_torch(torch.tensor(logp), old, adv, mask, loss_type="cispo")


@pytest.mark.parametrize("loss_type", CLIP_LOSS_TYPES)
@pytest.mark.parametrize("level", ["token", "sequence"])
def test_the_batch_loss_is_the_sum_of_each_rows_loss_and_gradient(loss_type, level):
    """The step runs one answer at a time: weighed once for the batch, row by row after."""
    logp, old, adv, mask = batch(3)
    opts = dict(loss_type=loss_type, importance_sampling_level=level, max_completion_length=7)
    whole = torch.tensor(logp, dtype=torch.float64, requires_grad=True)
    policy_loss_torch(whole, old, adv, mask, **opts).backward()
    weight = token_weights(adv, mask, **opts)
    rows = torch.tensor(logp, dtype=torch.float64, requires_grad=True)
    total = 0.0
    for i in range(len(adv)):
        part = surrogate_torch(
            rows[i : i + 1],
            old[i : i + 1],
            adv[i : i + 1],
            mask[i : i + 1],
            weight[i : i + 1],
            importance_sampling_level=level,
        )
        part.backward()
        total += part.item()
    assert total == pytest.approx(policy_loss(logp, old, adv, mask, **opts).loss, abs=1e-12)
    np.testing.assert_allclose(rows.grad.numpy(), whole.grad.numpy(), atol=1e-14)


def test_token_weights_depend_on_the_mask_only():
    _, _, adv, mask = batch(4)
    np.testing.assert_array_equal(
        token_weights(adv, mask), mask / mask.sum()
    )  # dapo: one over the batch's token count
