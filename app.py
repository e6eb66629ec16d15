"""GRPO advantage lab: the entry point builds the navigation, in teaching order."""

import streamlit as st

st.set_page_config(page_title="GRPO advantage lab", page_icon=":material/functions:", layout="wide")

PAGES = {
    "Learn": [
        st.Page(
            "pages/home.py", title="Home", icon=":material/home:", url_path="home", default=True
        ),
        st.Page(
            "pages/walkthrough.py",
            title="Step-by-step walkthrough",
            icon=":material/footprint:",
            url_path="walkthrough",
        ),
    ],
    "Explore": [
        st.Page(
            "pages/playground.py",
            title="Reward playground",
            icon=":material/science:",
            url_path="playground",
        ),
    ],
}

st.navigation(PAGES).run()
