"""Who is asking: the client's address, as deploy/nginx passes it, for the lab's budgets
(``practice.limits``), which a reload cannot shed.

A browser reaches the app either straight (its own address is the websocket's peer) or
through the proxy on the same machine (the peer is loopback, and nginx sets ``X-Real-IP``
to the browser's address, deploy/nginx.conf.template). The header is believed from a
loopback peer only: a browser that reaches the app straight could write any header.
"""

from __future__ import annotations

import ipaddress
import logging

import streamlit as st

from practice import limits
from practice.store.base import StoreUnavailable
from ui.class_store import class_store
from ui.store_guard import StoreFailed

log = logging.getLogger(__name__)


def _public(text) -> str:
    """``text`` if it is an IP address of another machine, else ""."""
    try:
        ip = ipaddress.ip_address(str(text).strip())
    except ValueError:
        return ""
    return "" if ip.is_loopback else str(ip)


def address() -> str:
    """The browser's address; "" for this machine itself (no per-address bound)."""
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
