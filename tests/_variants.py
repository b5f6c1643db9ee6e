"""A config's rules with some of its TOML changed, for tests of rule variants: the game's own
parser reads the changed document, as it reads a user's config."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from gpusim.config import load_config, parse_config


def variant(config: Any, changes: dict[str, Any]):
    """The rules of ``config`` (a shipped name, a path or rules) with each dotted key of its TOML
    (``"stakes.ante"``, ``"rules.dealer_qualifier.rank"``) set to its value; None removes the
    key."""
    rules = load_config(config)
    doc = tomllib.loads(Path(rules.source).read_text(encoding="utf-8"))
    for key, value in changes.items():
        *path, last = key.split(".")
        table = doc
        for part in path:
            table = table.setdefault(part, {})
        if value is None:
            table.pop(last, None)
        else:
            table[last] = value
    return parse_config(doc, source=f"{rules.source} (a variant)", default_name=rules.name)
