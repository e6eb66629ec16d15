"""GRPO advantage lab: the entry point. Pages are listed, in teaching order, in ui/nav.py."""

import streamlit as st

from ui import nav, store_guard

st.set_page_config(page_title="GRPO advantage lab", page_icon=":material/functions:", layout="wide")
store_guard.run(nav.run_app)  # a store outage or failure is a message, never a traceback
