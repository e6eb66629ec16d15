"""content/claims.toml against the content that cites it, and the citation renderer."""

import importlib
import re
from collections import defaultdict
from pathlib import Path

import pytest

import content
from content import citations
from grpo_core.conventions import CONVENTIONS, HISTORICAL_CONVENTIONS
from tests.content import prose
from ui import narrate

CLAIMS = content.read_toml("claims.toml")["claim"]
FIELDS = ("id", "claim", "files", "source", "url", "version", "checked")
GITHUB_AT_TAG = re.compile(r"^https://github\.com/[\w.-]+/[\w.-]+/blob/v\d+(\.\d+)*/\S+$")
ARXIV = re.compile(r"^https://arxiv\.org/abs/\d{4}\.\d{4,5}$")
DOI = re.compile(r"^https://doi\.org/(10\.\d{4,9}/\S+)$")
"""A paper with no arXiv abstract (a journal article) is cited by its DOI."""
CODE_CITING = ("ui", "practice")
"""App code that may cite a claim in the text it shows (class mode's lecturer screen)."""

# Every unit naming a library or paper carries a claim link, except these, which name one
# without stating a fact about it: (file, where, start of the text) -> why.
NAMES_WITHOUT_A_FACT = {
    ("critic.md", "simulator-honesty", "**Read the ranking with care.**"): (
        "names the estimators the app's own simulator runs (GRPO, Dr. GRPO, RLOO); "
        "states nothing about the papers or libraries"
    ),
    (
        "length_normalisation.md",
        "Worked numbers: a short right answer and a long wrong one",
        "A group of $K = 2$.",
    ): "sets up the example's numbers; Dr. GRPO's normaliser is cited where it is defined",
}


def citing_files() -> dict[str, set[str]]:
    """Claim id -> the content files, and the app modules (``ui/...py``), that cite it."""
    files = defaultdict(set)
    for unit in prose.all_text():
        for claim_id in prose.cited(unit.text):
            files[claim_id].add(unit.file)
    for folder in CODE_CITING:
        for module in sorted((ROOT / folder).rglob("*.py")):
            for claim_id in prose.cited(module.read_text(encoding="utf-8")):
                files[claim_id].add(module.relative_to(ROOT).as_posix())
    return files


def test_every_claim_has_every_field():
    for claim in CLAIMS:
        assert set(claim) == set(FIELDS), claim.get("id")
        for field in FIELDS:
            assert claim[field], (claim["id"], field)
        assert isinstance(claim["files"], list)


def test_claim_ids_are_unique_and_well_formed():
    ids = [c["id"] for c in CLAIMS]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9-]+", i) for i in ids)


def test_every_url_is_a_file_at_a_tag_an_arxiv_abstract_or_a_papers_doi():
    for claim in CLAIMS:
        url = claim["url"]
        assert GITHUB_AT_TAG.match(url) or ARXIV.match(url) or DOI.match(url), (claim["id"], url)
        if ARXIV.match(url):
            assert url.rsplit("/", 1)[1] in claim["source"], claim["id"]
        if found := DOI.match(url):  # a paper: its DOI in the source; what was read said
            assert f"doi:{found.group(1)}" in claim["source"], claim["id"]
            assert re.search(r"\bread\b", claim["checked"]), claim["id"]


@pytest.mark.parametrize(
    ("url", "ok"),
    [("https://doi.org/10.1119/1.18809", True), ("https://doi.org/10.1119/1.1374249", True),
     ("http://doi.org/10.1119/1.18809", False), ("https://doi.org/1119/1.18809", False),
     ("https://dx.doi.org/10.1119/1.18809", False), ("https://doi.org/10.1119/", False)],
)  # fmt: skip
def test_a_doi_url_is_https_doi_org_and_a_doi(url, ok):
    assert bool(DOI.match(url)) == ok


def test_every_cited_id_exists_and_every_claim_is_cited():
    cited = citing_files()
    known = {c["id"] for c in CLAIMS}
    assert set(cited) - known == set(), "cited but not in claims.toml"
    assert known - set(cited) == set(), "in claims.toml but cited nowhere"


def test_files_lists_exactly_the_files_that_cite_the_claim():
    cited = citing_files()
    for claim in CLAIMS:
        assert sorted(claim["files"]) == sorted(cited[claim["id"]]), claim["id"]


def test_a_unit_naming_a_library_or_paper_cites_a_claim():
    missing = []
    used_exceptions = set()
    for unit in prose.units():
        if not prose.LIBRARY.search(unit.text) or prose.cited(unit.text):
            continue
        key = next(
            (
                k
                for k in NAMES_WITHOUT_A_FACT
                if k[:2] == (unit.file, unit.where) and unit.text.startswith(k[2])
            ),
            None,
        )
        if key is None:
            missing.append((unit.file, unit.where, unit.text[:80]))
        else:
            used_exceptions.add(key)
    assert missing == []
    assert used_exceptions == set(NAMES_WITHOUT_A_FACT), "an exception no longer applies"


def test_a_question_naming_a_library_or_paper_cites_it_in_its_explanation():
    for question in prose.questions():
        text = "\n".join(t for _, t in prose._strings(question, ""))
        if prose.LIBRARY.search(text):
            assert prose.cited(question.get("explanation", "")), question["id"]


def test_quiz_claim_links_sit_only_in_explanations():
    # the quiz renders only explanations through cite (ui/quiz_widgets.py)
    for unit in prose.quiz_strings():
        if prose.cited(unit.text):
            assert unit.where.endswith(".explanation"), unit.where


def test_cite_links_the_source_with_its_versions_as_title():
    claim = citations.claims()["trl-scale-rewards"]
    out = citations.cite("[TRL ≥ 0.22](claim:trl-scale-rewards) takes strings.")
    title = citations.link_title(claim)
    assert out == f'[TRL ≥ 0.22]({claim["url"]} "{title}") takes strings.'
    assert claim["source"].split(" ")[0] in title and "v0.22" in title
    assert "claim:" not in out


def test_every_rendered_link_is_one_simple_markdown_link():
    # the narrator reads "[text](...)" as "text": a ")" or '"' in a title would leak out
    for claim_id in citations.claims():
        out = citations.cite(f"Say [this](claim:{claim_id}) aloud.")
        assert narrate.speakable(out) == "Say this aloud.", claim_id


def test_cite_leaves_an_unknown_claim_as_plain_text_and_other_links_alone():
    text = "[nope](claim:no-such-claim) and [Quiz](quiz) and [x](https://example.org)"
    assert citations.cite(text) == "nope and [Quiz](quiz) and [x](https://example.org)"


@pytest.mark.parametrize("name", prose.MARKDOWN)
def test_cited_markdown_keeps_no_claim_scheme_and_no_placeholder(name):
    out = citations.cite(content.read_text(name))
    assert "claim:" not in out
    assert not prose.PLACEHOLDER.search(out)


# What a claim's `checked` field may name: a module or function of the app, a test file, a
# convention. Each must exist, so the audit trail cannot point at code that was renamed.
CODE_NAME = re.compile(r"\b(?:grpo_core|practice|content|ui)(?:\.[A-Za-z_]\w*)+")
TEST_FILE = re.compile(r"\btests/[\w/]+\.py\b")
CONVENTION_NAME = re.compile(
    r"\bconventions? '([\w.-]+)'|HISTORICAL_CONVENTIONS\['([\w.-]+)'\]|'(trl-0\.22\.1-\w+)'"
)
ROOT = Path(__file__).resolve().parents[2]


def resolves(dotted: str) -> bool:
    """``dotted`` names an importable module, or an attribute chain inside one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True
    return False


def test_every_module_function_test_file_and_convention_a_checked_field_names_exists():
    missing = []
    for claim in CLAIMS:
        checked = claim["checked"]
        missing += [(claim["id"], n) for n in CODE_NAME.findall(checked) if not resolves(n)]
        files = TEST_FILE.findall(checked)
        missing += [(claim["id"], f) for f in files if not (ROOT / f).is_file()]
        for groups in CONVENTION_NAME.findall(checked):
            name = next(g for g in groups if g)
            if name not in CONVENTIONS and name not in HISTORICAL_CONVENTIONS:
                missing.append((claim["id"], name))
    assert missing == []


def test_the_existence_check_catches_a_stale_name():
    assert resolves("grpo_core.precision.float32_advantages")
    assert not resolves("grpo_core.analysis.float32_advantages")
    assert not resolves("grpo_core.baselines.gae")
    assert not (ROOT / "tests/core/test_baselines.py").is_file()
