"""GRPO advantage lab: the entry point. Pages are listed, in teaching order, in ui/nav.py."""

import streamlit as st

from ui import nav

st.set_page_config(page_title="GRPO advantage lab", page_icon=":material/functions:", layout="wide")
nav.run_app()
