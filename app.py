"""GRPO advantage lab: the entry point. Pages are listed, in teaching order, in ui/nav.py."""

import streamlit as st

from ui import nav, store_guard, upload_quota

st.set_page_config(page_title="GRPO advantage lab", page_icon=":material/functions:", layout="wide")
upload_quota.install()  # uploads held in memory: bounded per session and per process
store_guard.run(nav.run_app)  # a store outage or failure is a message, never a traceback
