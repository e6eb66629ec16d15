"""How every page starts: ``page.start()`` is the first line of each file in ``pages/``."""

from ui import learner, nav, state


def start() -> None:
    """Route the run through app.py's navigation, set the shared state a page reads
    (defaults, and the URL once per session), and keep presentation mode in the URL and
    the learner key out of a presented one."""
    nav.ensure_app_navigation()
    state.init()
    learner.keep_off_shared_screen()
