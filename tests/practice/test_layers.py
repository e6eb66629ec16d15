"""practice is the Streamlit-free layer: importing all of it loads no streamlit, ui or pages."""

import pkgutil
import subprocess
import sys

import practice

MODULES = sorted(f"practice.{info.name}" for info in pkgutil.iter_modules(practice.__path__))


def test_practice_imports_no_streamlit_ui_or_pages():
    code = (
        "import importlib, sys\n"
        f"for name in {MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'ui', 'pages'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
