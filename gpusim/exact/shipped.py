"""The shipped exact reports (``gpusim/data/exact``): ``gpusim exact`` output for every shipped
config under its optimal strategy, so an installed wheel answers in a second instead of
re-counting 10^13 deals (minutes, and gigabytes of cached counts). ``provenance.json`` records
each file's sha256, the config hash and the command that regenerates it; the slow test suite
re-solves and compares them. Each report's first key, ``format``, is its version
(:data:`gpusim.exact.report.FORMAT`, docs/formats.md)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

__all__ = ["EXACT_DIR", "shipped_report"]

EXACT_DIR = Path(__file__).resolve().parent.parent / "data" / "exact"


def shipped_report(rules, strategy: str) -> dict | None:
    """The shipped report for exactly these rules (config hash) and strategy, or None.

    A file whose sha256 differs from its provenance record is ignored (the caller re-counts);
    one whose ``format`` is not :data:`gpusim.exact.report.FORMAT` is refused (ValueError, one
    line naming the file, the value and the format allowed).
    """
    from gpusim.exact.report import check_format

    prov_path = EXACT_DIR / "provenance.json"
    if not prov_path.is_file():
        return None
    for name, p in json.loads(prov_path.read_text()).items():
        if p.get("config_hash") != rules.config_hash or p.get("strategy") != strategy:
            continue
        data = (EXACT_DIR / name).read_bytes()
        if hashlib.sha256(data).hexdigest() == p.get("sha256"):
            return check_format(json.loads(data), str(EXACT_DIR / name))
    return None
