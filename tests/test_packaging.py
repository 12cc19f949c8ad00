"""pyproject.toml as setuptools reads it without a warning: the first ``./run`` installs the
project (``pip install -e``), and whatever setuptools warns about there is printed to the owner
before the address to open. A licence given as a TOML table is deprecated (an SPDX expression,
setuptools 77 and later, is the way), and an editable install of packages found at the top of
the checkout, with no ``package-dir`` said, warns about folders of the same name."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parents[1]


def project() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_licence_is_an_spdx_expression_that_setuptools_reads_as_such() -> None:
    data = project()
    licence = data["project"]["license"]  # type: ignore[index]
    assert isinstance(licence, str) and licence == "MIT", licence
    setuptools = next(Requirement(r) for r in data["build-system"]["requires"]  # type: ignore[index]
                      if Requirement(r).name == "setuptools")
    # Every setuptools the build may pick reads the string as an SPDX expression (77.0 and later).
    assert not SpecifierSet(str(setuptools.specifier)).contains("76.9"), setuptools
    assert SpecifierSet(str(setuptools.specifier)).contains("77.0"), setuptools


def test_the_editable_install_is_a_plain_path_entry() -> None:
    """``package-dir = {"" = "."}`` is what makes setuptools choose a .pth line (no layout warning)."""
    tool = project()["tool"]["setuptools"]  # type: ignore[index]
    assert tool["package-dir"] == {"": "."}, tool  # type: ignore[index]
    assert set(tool["packages"]["find"]["include"]) == {"companion*", "hardware*", "calibration*"}  # type: ignore[index]
