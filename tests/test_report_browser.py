"""The HTML report in a real browser: headless Chromium loads it without console errors, every
image decodes and is not blank, every number tagged in the page equals the embedded JSON, and
the screenshot of the first screen is not empty; html5lib parses it without a single error.

CI installs Debian's chromium (.ci/run) and sets GPUSIM_REQUIRE_BROWSER=1, so there a missing
browser fails the test instead of skipping it.
"""

from __future__ import annotations

import io
import os

import numpy as np
import pytest
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app
from gpusim.report.browser import chromium_path, inspect_page


@pytest.fixture(scope="module")
def report_file(tmp_path_factory):
    d = tmp_path_factory.mktemp("browser")
    run = gpusim.simulate("holdem_bonus", rounds=30_000, seed=5, out=d / "run", chunk=10_000)
    out = d / "report.html"
    res = CliRunner().invoke(app, ["report", str(run.path), "--out", str(out), "--rounds", "200",
                                   "--paths", "500", "--bankroll", "50"])
    assert res.exit_code == 0, res.output
    return out


def test_html_parses_without_errors(report_file):
    import html5lib  # the dev extra installs it

    parser = html5lib.HTMLParser(strict=True)
    doc = parser.parse(report_file.read_text())  # strict: raises on the first parse error
    assert not parser.errors
    imgs = [e for e in doc.iter() if e.tag.endswith("img")]
    assert len(imgs) == 6 and all(e.get("src").startswith("data:image/png;base64,")
                                  for e in imgs)


def test_report_in_headless_chromium(report_file):
    if chromium_path() is None:
        if os.environ.get("GPUSIM_REQUIRE_BROWSER"):
            pytest.fail("chromium is required here (GPUSIM_REQUIRE_BROWSER) but not installed")
        pytest.skip("chromium not installed (Debian: apt-get install chromium)")
    res = inspect_page(report_file)
    assert res["console_errors"] == []
    c = res["checks"]
    assert c["json_ok"] and c["title"].startswith("gpusim report: holdem_bonus")
    assert c["cells"] > 100 and c["cell_mismatches"] == []
    assert len(c["images"]) == 6
    for img in c["images"]:
        assert img["decoded"], img
        assert img["width"] >= 400 and img["height"] >= 200, img
        # a blank or single-colour image has one colour and no ink
        assert img["colours"] > 20 and img["ink"] > 200, img
    import matplotlib.image

    shot = matplotlib.image.imread(io.BytesIO(res["screenshot"]), format="png")
    assert shot.shape[:2] == (900, 1280)
    grey = shot[..., :3].mean(axis=2)
    assert grey.std() > 0.05 and (grey < 0.5).mean() > 0.005  # text and tables, not blank
    assert np.unique(grey.round(2)).size > 20
