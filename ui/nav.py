"""The app's pages in teaching order, and the one way they are reached: app.py's navigation.

Streamlit still has an older multipage mode that runs files in ``pages/`` on
their own. It is used for the very first visit after a server starts when that
visit opens a page URL (say a shared /playground link) instead of the home page:
that page would then run without app.py's navigation, layout and theme.
``ensure_app_navigation`` catches that run and hands it to app.py's navigation.

The home page is the default page, served at ``/``; Streamlit does not serve a default
page's own path, so a hidden page at ``/home`` sends the reader to ``/``.
"""

import streamlit as st

from ui import learner, present, style

_navigated = False
"""Set once app.py has built the navigation in this server process."""


PAGES = {  # section: [(file in pages/, title, Material icon, URL path)]
    "Learn": [
        ("home", "Home", "home", "home"),
        ("walkthrough", "Step-by-step walkthrough", "footprint", "walkthrough"),
        # learn pages
        ("guide", "Concept guide", "menu_book", "guide"),
        ("length-normalisation", "Length normalisation", "straighten", "length-normalisation"),
    ],
    "Explore": [
        ("playground", "Reward playground", "science", "playground"),
        # lab pages
        ("epsilon", "Epsilon lab", "tune", "epsilon"),
        ("conventions", "Library conventions", "compare_arrows", "conventions"),
        ("difficulty", "Difficulty bias & Dr. GRPO", "trending_up", "difficulty"),
        ("dynamic-sampling", "Zero-spread groups & DAPO", "filter_alt", "dynamic-sampling"),
        # critic pages
        ("critic", "PPO critic vs GRPO", "psychology", "critic"),
        ("policy-loss", "From advantage to update", "functions", "policy-loss"),
        ("real-model", "A real model's group", "smart_toy", "real-model"),
        ("simulator", "Training simulator", "monitoring", "simulator"),
        # training-log pages
        ("training-log", "Inspect a training log", "dataset", "training-log"),
        ("trainer-bugs", "Bugs trainers shipped", "bug_report", "trainer-bugs"),
    ],
    "Practise": [
        ("quiz", "Quiz", "quiz", "quiz"),
        ("interview", "Interview drill", "record_voice_over", "interview"),
        ("review", "Review", "event_repeat", "review"),
        ("cheatsheet", "Cheat sheet", "description", "cheatsheet"),
        ("verify", "Verify a certificate", "verified", "verify"),
    ],
    "Teach": [
        ("class", "Class mode", "co_present", "class"),
    ],
}


def _entry(file: str) -> tuple[str, str, str, str]:
    """The ``PAGES`` entry of the page ``pages/<file>.py``."""
    for entries in PAGES.values():
        for entry in entries:
            if entry[0] == file:
                return entry
    raise KeyError(f"no page {file!r} in ui/nav.PAGES")


def page(file: str) -> st.Page:
    """The st.Page of ``pages/<file>.py``: the one place a page's path is written.

    The home page is the default page, at ``/`` (its ``PAGES`` path leads there too,
    through ``home_alias``)."""
    file, title, icon, url = _entry(file)
    if file == "review":
        title = learner.nav_title(title)  # "Review (3 due)" once a learner key is known
    home = file == "home"
    return st.Page(
        f"pages/{file}.py",
        title=title,
        icon=f":material/{icon}:",
        url_path="" if home else url,
        default=home,
    )


def _to_home() -> None:
    st.switch_page(page("home"), query_params=st.query_params.to_dict())


def home_alias() -> st.Page:
    """A page hidden from the menu at the home page's ``PAGES`` path (``/home``) that
    switches to the home page at ``/``, keeping the link's parameters; without it
    Streamlit shows "Page not found" over the home page."""
    _, title, icon, url = _entry("home")
    return st.Page(
        _to_home, title=title, icon=f":material/{icon}:", url_path=url, visibility="hidden"
    )


def pages() -> dict[str, list]:
    """The st.Page objects of ``PAGES``; the first one is the default page, and the home
    page's alias comes last (hidden)."""
    listed = {section: [page(entry[0]) for entry in entries] for section, entries in PAGES.items()}
    last = list(listed)[-1]
    listed[last].append(home_alias())
    return listed


def by_url(url: str) -> str | None:
    """The page file whose URL path is ``url`` (``"playground"``), or None."""
    return next((e[0] for entries in PAGES.values() for e in entries if e[3] == url), None)


def link(file: str, label: str, *, icon: str | None = None) -> None:
    """A link to ``pages/<file>.py`` that keeps presentation mode on while presenting."""
    target = page(file)
    st.page_link(target, label=label, icon=icon or target.icon, query_params=present.link_params())


def run_app() -> None:
    """Build the navigation and run the page the URL asks for (called by app.py).

    In presentation mode the navigation is a slim bar at the top instead of the sidebar.
    """
    global _navigated
    _navigated = True
    present.read_link()
    present.keep_in_url()
    page = st.navigation(pages(), position="top" if present.active() else "sidebar", expanded=True)
    style.apply()
    present.controls()
    page.run()


def ensure_app_navigation() -> None:
    """If this page was started by Streamlit's older mode, rerun it through app.py."""
    if not _navigated:
        st.navigation(pages(), position="hidden")  # switches Streamlit to this navigation
        st.rerun()
