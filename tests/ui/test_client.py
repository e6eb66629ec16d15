"""Which address a budget counts: another machine's, never loopback's (this machine: a
learner's own server, the tests, the benchmarks), never a header that is not an address."""

from __future__ import annotations

import pytest

from ui.client import _public


@pytest.mark.parametrize("text", ["", "127.0.0.1", "::1", "not an address", "1.2.3.4, 5.6.7.8"])
def test_loopback_and_non_addresses_count_as_this_machine(text):
    assert _public(text) == ""


@pytest.mark.parametrize("text", ["203.0.113.20", " 198.51.100.7 "])
def test_another_machines_address_is_counted(text):
    assert _public(text) == text.strip()


def test_an_ipv6_client_is_counted_by_its_64_network():
    """One home or phone holds a whole /64: a new address for each request is one client."""
    assert _public("2001:db8:0:1::7") == _public("2001:db8:0:1:ffff::1") == "2001:db8:0:1::/64"
    assert _public("2001:db8:0:2::7") == "2001:db8:0:2::/64"
