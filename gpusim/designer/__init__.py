"""Paytable designer: every paytable of a search space that meets an RTP band (and bands on hit
frequency, SD and volatility), found exactly from the cached counts.

Entry points::

    search(config, bet, rtp="0.965:0.970", lines=["AKs=20:40"], ...) -> DesignResult
    design(...) -> polars.DataFrame          # search(...).table
    write_config(result, path, rank=1)       # a config that simulate and exact accept

Side bets (:mod:`.sidebet`) are priced by linear sums of their integer counts; main-game
paytables (:mod:`.maingame`) under the optimal strategy re-optimised for each candidate. Both
searches are complete branch and bound: a candidate is never sampled, and the count of every
candidate meeting the targets is exact even where ``top`` cuts the table.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from gpusim.designer.models import (
    bet_kind,
    current_paytable,
    main_model,
    side_bet_model,
    with_paytable,
)
from gpusim.designer.space import Band, DesignError, Targets, parse_band, parse_space

__all__ = ["FORMAT", "DesignError", "DesignResult", "candidate", "design", "search",
           "targets_from", "toml_text", "write_config"]

FORMAT = "gpusim-design/1"
"""The version of :meth:`DesignResult.to_json` (``gpusim design --json``), its first key
(docs/formats.md)."""


@dataclass
class DesignResult:
    """A finished search. ``table``: the ranked candidates (polars); ``count``: how many
    paytables of the space meet the targets (``table`` holds the best ``top``); ``nearest``:
    when none does, the RTP reachable under the constraints nearest the band."""

    config: str
    bet: str
    kind: str
    lines: tuple[str, ...]
    current: dict[str, int]
    space_size: int
    count: int
    table: object
    targets: Targets
    seconds: float
    strategy: str | None = None
    nearest: float | None = None
    note: str | None = None
    rules: object = field(default=None, repr=False)
    stats: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"format": FORMAT, "config": self.config, "bet": self.bet, "kind": self.kind,
                "strategy": self.strategy, "current": self.current,
                "space_size": self.space_size, "count": self.count, "shown": self.table.height,
                "seconds": round(self.seconds, 3), "nearest_rtp": self.nearest,
                "note": self.note, "candidates": self.table.to_dicts()}


def _band_text(value) -> str | None:
    if value is None or isinstance(value, str):
        return value
    lo, hi = value
    return f"{'' if lo is None else lo}:{'' if hi is None else hi}"


def targets_from(rtp=None, house_edge=None, hit_frequency=None, sd=None, vi=None,
                 confidence: float = 0.90) -> Targets:
    """The targets from bands given as ``"LO:HI"`` or ``(lo, hi)`` (RTP or house edge)."""
    if (rtp is None) == (house_edge is None):
        raise DesignError("--rtp/--house-edge: give exactly one band, e.g. --rtp 0.965:0.970")
    if not 0 < confidence < 1:
        raise DesignError(f"--confidence: got {confidence}; allowed: between 0 and 1, e.g. 0.90")
    if rtp is not None:
        band = parse_band(_band_text(rtp), "--rtp", percent_above=2)
    else:
        he = parse_band(_band_text(house_edge), "--house-edge", percent_above=1)
        band = Band(None if he.hi is None else 1 - he.hi, None if he.lo is None else 1 - he.lo)
    return Targets(band, parse_band(_band_text(hit_frequency), "--hit-frequency",
                                    percent_above=1),
                   parse_band(_band_text(sd), "--sd"), parse_band(_band_text(vi), "--vi"),
                   float(confidence))


def search(config, bet: str, *, rtp=None, house_edge=None, hit_frequency=None, sd=None,
           vi=None, confidence: float = 0.90, lines: list[str] | None = None,
           free: list[str] | None = None, step=1, monotone: bool = True, cap: int | None = None,
           near: bool = False, top: int = 10, strategy: str | None = None,
           counts=None, progress: bool = False) -> DesignResult:
    """Search ``bet``'s paytables of ``config`` (a name, a TOML path or loaded rules).

    lines: ``["LINE=LO:HI[:STEP]", ...]`` free lines with bounds; free: line names free from
    half to twice their pay; other lines keep their pay. near: rank by the fewest and smallest
    changes from the config's paytable (else by distance from the band's middle). counts: the
    main game's exact counts (default: the cached ones, counted on first use).
    """
    from gpusim.config import ConfigError, load_config
    from gpusim.stats.moments import Z90, Z95, z_two_sided

    t0 = time.perf_counter()
    try:
        rules = load_config(config)
    except ConfigError as exc:
        raise DesignError(str(exc)) from None
    kind = bet_kind(rules, bet)
    targets = targets_from(rtp, house_edge, hit_frequency, sd, vi, confidence)
    if top < 0:
        raise DesignError(f"--top: got {top}; allowed: a whole number >= 0")
    current = current_paytable(rules, bet)
    space = parse_space(bet, current, lines=lines, free=free, step=step, monotone=monotone,
                        cap=cap)
    z = {0.90: Z90, 0.95: Z95}.get(targets.confidence) or z_two_sided(targets.confidence)
    if kind.kind == "main":
        strategy = strategy or (rules.default_strategy if rules.default_strategy
                                in kind.strategies else next(iter(kind.strategies)))
        if strategy not in kind.strategies:
            raise DesignError(f"--strategy: got {strategy!r}; the designer re-optimises "
                              f"{', '.join(kind.strategies)}")
        model = main_model(rules, bet, strategy, counts=counts, progress=progress)
    else:
        if strategy is not None:
            raise DesignError(f"--strategy: {bet} is a side bet; no strategy touches it")
        model = side_bet_model(rules, bet)
    stats: dict = {}
    count, best = _run(kind.kind, model, space, targets, top, near, z, stats)
    nearest = None
    if count == 0:
        nearest = _nearest(kind.kind, model, space, targets, z)
    table = _frame(kind.kind, model, space, best)
    note = "; ".join(n for n in (kind.note, stats.get("note")) if n) or None
    return DesignResult(rules.name, bet, kind.kind, space.names, current, space.size, count,
                        table, targets, time.perf_counter() - t0, strategy, nearest, note,
                        rules, stats)


def design(config, bet: str, **kw):
    """The ranked candidates of :func:`search` as a polars DataFrame: rank, one column per
    paytable line, rtp, house_edge, hit_frequency, sd, vi (and for a main game
    element_of_risk, call_rate), changes (lines that differ from the config), rtp_exact."""
    return search(config, bet, **kw).table


def _run(kind, model, space, targets, top, near, z, stats=None):
    if kind == "main" and hasattr(model, "price"):
        # a model that prices whole candidates (a described game's, re-solved per candidate)
        from gpusim.designer.priced import search_priced

        return search_priced(model, space, targets, top=top, near=near, z=z, stats=stats)
    if kind == "main":
        from gpusim.designer.maingame import search_main

        return search_main(model, space, targets, top=top, near=near, z=z, stats=stats)
    from gpusim.designer.sidebet import search_side_bet

    return search_side_bet(model, space, targets, top=top, near=near, z=z)


def _nearest(kind, model, space, targets, z) -> float | None:
    """The RTP nearest the band that the constraints reach (other targets kept): the band is
    widened, four times wider each try, until a candidate meets it; the nearest of those is
    the answer (the ranking puts the one nearest the band's middle first)."""
    band = targets.rtp
    if band.open:
        return None  # every RTP was allowed: another target rules everything out
    lo = band.lo if band.lo is not None else band.hi
    hi = band.hi if band.hi is not None else band.lo
    width = max(hi - lo, Fraction(1, 10_000))
    for _ in range(20):
        wide = Band(max(lo - width, Fraction(0)), hi + width)
        t = Targets(wide, targets.hit_frequency, targets.sd, targets.vi, targets.confidence)
        n, best = _run(kind, model, space, t, 1, False, z)
        if n:
            if "s" in best.extra:  # a side bet: its exact sum, rounded once
                return float(1 + Fraction(int(best.extra["s"][0]), model.total))
            return float(best.extra["rtp"][0])
        if wide.lo == 0 and width > 4:
            return None
        width *= 4
    return None


def _frame(kind, model, space, best):
    import polars as pl

    names = list(space.names)
    if best.pays is None:
        pays = np.zeros((0, len(names)), dtype=np.int64)
        extra = {}
    else:
        pays, extra = best.pays, best.extra
    cols = {"rank": np.arange(1, len(pays) + 1, dtype=np.int64)}
    for j, name in enumerate(names):
        cols[name] = pays[:, j].astype(np.int64)
    figs = ["rtp", "house_edge", "hit_frequency", "sd", "vi"]
    if kind == "main":
        figs += ["element_of_risk", "call_rate"]
    for f in figs:
        cols[f] = np.asarray(extra.get(f, np.zeros(0)), dtype=float)
    cols["changes"] = (pays != space.current[None, :]).sum(axis=1).astype(np.int64)
    if kind == "main":
        cols["rtp_exact"] = [str(v) for v in extra.get("rtp_exact", [])]
    else:
        # the shown ratios are the exact fractions rounded once, as the exact report rounds
        exact = [Fraction(int(s), model.total) for s in extra.get("s", [])]
        cols["rtp"] = np.array([float(1 + m) for m in exact], dtype=float)
        cols["house_edge"] = np.array([float(-m) for m in exact], dtype=float)
        cols["rtp_exact"] = [str(1 + m) for m in exact]
    return pl.DataFrame(cols, schema_overrides={"rtp_exact": pl.String})


def candidate(result: DesignResult, rank: int = 1) -> dict[str, int]:
    """{line: pay} of the candidate at ``rank`` (1 = best)."""
    if not 1 <= rank <= result.table.height:
        raise DesignError(f"--pick: got {rank}; the table holds candidates 1 .. "
                          f"{result.table.height}")
    row = result.table.row(rank - 1, named=True)
    return {ln: int(row[ln]) for ln in result.lines}


def toml_text(doc: dict, header: str = "") -> str:
    """A config document as TOML: scalars first, then each table (nested tables as
    ``[a.b]``; arrays, and tables inside them, inline: a described game's ``[game]``)."""
    import json
    import re

    def key(k) -> str:
        return k if re.fullmatch(r"[A-Za-z0-9_-]+", str(k)) else json.dumps(str(k))

    def scalar(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, float):
            return repr(v) if math.isfinite(v) else "nan"
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(scalar(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{key(k)} = {scalar(x)}" for k, x in v.items()) + "}"
        return json.dumps(str(v))

    out: list[str] = [header] if header else []

    def table(prefix: str, d: dict) -> None:
        # below the top level the keys keep their order (a described game's identity is its
        # [game] table's text): a table before a plain value is inline, those after it [a.b]
        items = list(d.items())
        if not prefix:
            items.sort(key=lambda kv: isinstance(kv[1], dict))
        last = max((i for i, (_, v) in enumerate(items) if not isinstance(v, dict)), default=-1)
        if prefix and last >= 0:
            out.append(f"\n[{prefix}]")
        out.extend(f"{key(k)} = {scalar(v)}" for k, v in items[: last + 1])
        for k, v in items[last + 1:]:
            table(f"{prefix}.{key(k)}" if prefix else key(k), v)

    table("", doc)
    return "\n".join(out) + "\n"


def write_config(result: DesignResult, path, rank: int = 1) -> Path:
    """Write the candidate at ``rank`` as a config (the searched config with that paytable,
    named after the file); returns the path. The file is read back before it is kept."""
    from gpusim.config import ConfigError, load_config

    p = Path(path).expanduser()
    pays = candidate(result, rank)
    doc, rules = with_paytable(result.rules, result.bet, pays, name=p.stem)
    doc["description"] = (f"{result.config} with {result.bet} paytable "
                          + "/".join(str(v) for v in pays.values())
                          + f" (gpusim design, candidate {rank})")
    text = toml_text(doc, "# Written by gpusim design. Pays: X means X:1.")
    tmp = p.with_name(f".{p.stem}.partial.toml")
    tmp.write_text(text)
    try:
        back = load_config(tmp)
    except ConfigError as exc:
        tmp.unlink()
        raise DesignError(f"--write-config: the written config does not load: {exc}") from None
    if back.config_hash != rules.config_hash:
        tmp.unlink()
        raise DesignError("--write-config: the written config reads back differently")
    tmp.replace(p)
    return p
