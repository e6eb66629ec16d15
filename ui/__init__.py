"""What several pages share: the look, the charts, the shared state and its widgets.

Pages import streamlit and these helpers; every number comes from grpo_core.
"""
