"""GRPO advantage lab: entry point. The navigation and pages arrive with the app issue."""

import streamlit as st

st.set_page_config(page_title="GRPO advantage lab", page_icon="📐", layout="wide")
st.title("GRPO advantage lab")
st.markdown(
    "GRPO samples K answers to one prompt, grades each, and scores every answer "
    "against its own group: "
    "$A_i = \\dfrac{R_i - \\mathrm{mean}(R)}{\\mathrm{std}(R) + \\varepsilon}$."
)
