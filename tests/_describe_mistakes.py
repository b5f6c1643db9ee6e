"""The check every described game's error battery makes: a config's text with some edits
fails to load in one line that names the key and holds the words."""

from __future__ import annotations

import pytest

from gpusim.config import ConfigError, load_config


def assert_refused(tmp_path, cid: str, text: str, edits, key: str, needles) -> None:
    """``text`` with each (old, new) of ``edits`` replaced once is refused when loaded: one
    line, ``<path>: key '<key>': ...`` holding every needle."""
    for old, new in edits:
        assert old in text, (cid, old)
        text = text.replace(old, new, 1)
    path = tmp_path / f"{cid}.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    msg = str(info.value)
    prefix = f"{path}: key '{key}': "
    assert "\n" not in msg and msg.startswith(prefix), msg
    for needle in needles:
        assert needle in msg[len(prefix):], (needle, msg)
