"""ui.narrate.speakable: what the speech engine is given to read."""

from ui.narrate import MAX_SPOKEN_CHARS, speakable


def test_math_links_and_markup_become_words():
    text = speakable(
        r"The advantage $A_i = (R_i - \bar R)/(\sigma + \varepsilon)$ is **signed**. "
        "See [the playground](playground). $$x^2$$ Done."
    )
    assert "A sub i equals" in text and "sigma" in text and "epsilon" in text
    assert "the playground" in text and "(playground)" not in text
    assert "**" not in text and "$" not in text
    assert "a formula, shown on screen" in text


def test_bounded_and_safe_for_any_text():
    assert len(speakable("word " * 100_000)) == MAX_SPOKEN_CHARS
    assert speakable("") == ""
    assert "alert(1)" in speakable("<script>alert(1)</script>")  # read out as text
