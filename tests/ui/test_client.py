"""Which address a budget counts: another machine's, never loopback's (this machine: a
learner's own server, the tests, the benchmarks), never a header that is not an address."""

from __future__ import annotations

import pytest

from ui.client import _public


@pytest.mark.parametrize("text", ["", "127.0.0.1", "::1", "not an address", "1.2.3.4, 5.6.7.8"])
def test_loopback_and_non_addresses_count_as_this_machine(text):
    assert _public(text) == ""


@pytest.mark.parametrize("text", ["203.0.113.20", " 198.51.100.7 ", "2001:db8::1"])
def test_another_machines_address_is_counted(text):
    assert _public(text) == text.strip()
