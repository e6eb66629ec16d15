"""Who is asking: the client's address, as deploy/nginx passes it, for the lab's budgets
(``practice.limits``), which a reload cannot shed; and which work this server did lately
(remembered by its caches, so asking for it again costs no budget).

A browser reaches the app either straight (its own address is the websocket's peer) or
through the proxy on the same machine (the peer is loopback, and nginx sets ``X-Real-IP``
to the browser's address, deploy/nginx.conf.template). The header is believed from a
loopback peer only: a browser that reaches the app straight could write any header.
"""

from __future__ import annotations

import ipaddress
import logging
from collections import OrderedDict

import streamlit as st

from practice import limits
from practice.store.base import StoreUnavailable
from ui.class_store import class_store
from ui.store_guard import StoreFailed

log = logging.getLogger(__name__)


IPV6_PREFIX = 64
"""An IPv6 client is counted by its /64 network: one home or phone is given a whole /64,
so a script could otherwise take a new address for every request."""


def _public(text) -> str:
    """The address of another machine in ``text`` (an IPv6 one as its /64 network), or ""
    for this machine and for text that is no address."""
    try:
        ip = ipaddress.ip_address(str(text).strip())
    except ValueError:
        return ""
    if ip.is_loopback:
        return ""
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/{IPV6_PREFIX}", strict=False))
    return str(ip)


def address() -> str:
    """The browser's address; "" for this machine itself (which counts in no budget)."""
    peer = st.context.ip_address  # None for a loopback peer (or outside a browser session)
    if peer is not None:
        return _public(peer)
    return _public(st.context.headers.get("X-Real-IP", ""))


def spend(budget: limits.Budget, *, scope: str = "", cost: int = 1) -> None:
    """``practice.limits.spend`` for this browser (OverBudget past a bound). A store that
    cannot be reached refuses nothing: the budgets guard the server, and an outage of the
    store is shown where the store is needed."""
    try:
        limits.spend(class_store(), budget, address(), scope=scope, cost=cost)
    except (StoreUnavailable, StoreFailed) as err:
        log.warning("budget %s not counted: %s", budget.name, err)


def allowed(budget: limits.Budget, *, cost: int = 1) -> bool:
    """Whether this browser may do ``cost`` of ``budget``'s work now; if not, a calm note
    says when to try again."""
    try:
        spend(budget, cost=cost)
    except limits.OverBudget as busy:
        st.info(str(busy), icon=":material/hourglass_top:")
        return False
    return True


@st.cache_resource(show_spinner=False)
def _recent() -> dict[str, OrderedDict]:
    """kind -> the keys of the work of that kind this process did last, oldest first."""
    return {}


def done_lately(kind: str, key) -> bool:
    """Whether this process did ``key`` of ``kind`` among the last it ``remember``ed."""
    seen = _recent().setdefault(kind, OrderedDict())
    if key in seen:
        seen.move_to_end(key)
        return True
    return False


def remember(kind: str, key, keep: int) -> None:
    """Remember ``key`` of ``kind`` as done, with the ``keep`` most recent (a cache's size)."""
    seen = _recent().setdefault(kind, OrderedDict())
    seen[key] = True
    seen.move_to_end(key)
    while len(seen) > keep:
        seen.popitem(last=False)
