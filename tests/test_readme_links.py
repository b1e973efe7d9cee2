"""The README's links work on the package index's project page (absolute, into the
repository) and point at files that exist; the metadata names the project's URLs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_metadata_names_the_project_urls():
    urls = _project()["urls"]
    assert set(urls) == {"Homepage", "Documentation", "Repository", "Changelog", "Issues"}
    assert all(url.startswith("https://") for url in urls.values())
    assert urls["Changelog"] == urls["Repository"] + "/blob/main/CHANGELOG.md"


def test_readme_links_are_absolute_and_name_files_of_the_repository():
    blob = _project()["urls"]["Repository"] + "/blob/main/"
    links = LINK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    relative = [t for t in links if not re.match(r"[a-z]+:|#", t)]
    assert relative == [], "relative links break on the package index's page"
    local = [t.removeprefix(blob).split("#")[0] for t in links if t.startswith(blob)]
    assert local, "the README links into the repository"
    missing = [path for path in local if not (ROOT / path).is_file()]
    assert missing == []
