"""ui.controls: the share link's URL."""

from ui.controls import link_url


def test_a_view_at_its_defaults_links_without_a_bare_question_mark():
    """The length-normalisation, epsilon, difficulty, dynamic-sampling and real-model pages
    at their defaults showed "http://host/epsilon?" as the link to share."""
    assert link_url("http://host/epsilon", {}) == "http://host/epsilon"


def test_a_link_carries_its_parameters_encoded():
    url = link_url("http://host/playground", {"r": "1_0~0.5", "c": "trl"})
    assert url == "http://host/playground?r=1_0~0.5&c=trl"
    assert link_url("", {"present": "1"}) == "?present=1"  # AppTest: no base URL
