"""Paytable designer: every paytable of a search space that meets an RTP band (and bands on hit
frequency, SD, volatility and a main-game bet's total-bet RTP), found exactly from the cached
counts, ranked in a chosen order beside the config's own paytable priced the same way.

Entry points::

    search(config, bet, rtp="0.965:0.970", lines=["AKs=20:40"], ...) -> DesignResult
    design(...) -> polars.DataFrame          # search(...).table
    write_config(result, path, rank=1)       # a config that simulate and exact accept

Three searches, by the model a game's spec builds (:mod:`.models`): a net that is a sum of one
non-decreasing term per line (a side bet's linear counts; a side bet a fold forfeits under a
strategy; Ultimate Texas Hold'em's Blind under a strategy its pays do not move) by
:mod:`.sidebet`; Casino Hold'em's Ante under the call re-optimised per candidate by
:mod:`.maingame`; whole candidates priced one by one (a described game's paytable re-solved per
candidate, a paytable whose pays move a solved strategy) by :mod:`.priced`. Each is a complete
branch and bound: a candidate is never sampled, and the count of every candidate meeting the
targets is exact even where ``top`` cuts the table. Pays may be ratios (3/2) where the config's
stakes pay them (:mod:`.space`).
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
from gpusim.designer.ranking import SORTS
from gpusim.designer.space import (
    Band,
    DesignError,
    Targets,
    narrowed,
    parse_band,
    parse_space,
    pay_text,
)

__all__ = ["FORMAT", "SORTS", "DesignError", "DesignResult", "candidate", "design", "search",
           "targets_from", "toml_text", "write_config"]

FORMAT = "gpusim-design/1"
"""The version of :meth:`DesignResult.to_json` (``gpusim design --json``), its first key
(docs/formats.md)."""


@dataclass
class DesignResult:
    """A finished search. ``table``: the ranked candidates (polars); ``count``: how many
    paytables of the space meet the targets (``table`` holds the best ``top``); ``nearest``:
    when none does, the RTP reachable under the constraints nearest the band; ``current_figures``:
    the config's own paytable priced the same way; ``figures``: the figure columns, in order;
    ``strategy_text``: how the figures treat the strategy (None: no decision touches them)."""

    config: str
    bet: str
    kind: str
    lines: tuple[str, ...]
    current: dict
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
    current_figures: dict = field(default_factory=dict)
    figures: tuple[str, ...] = ()
    sort: str = "target"
    reverse: bool = False
    strategy_text: str | None = None

    def to_json(self) -> dict:
        return {"format": FORMAT, "config": self.config, "bet": self.bet, "kind": self.kind,
                "strategy": self.strategy, "strategy_text": self.strategy_text,
                "current": {k: pay_text(v) for k, v in self.current.items()},
                "current_figures": self.current_figures, "figures": list(self.figures),
                "confidence": self.targets.confidence, "sort": self.sort,
                "reverse": self.reverse,
                "space_size": self.space_size, "count": self.count, "shown": self.table.height,
                "seconds": round(self.seconds, 3), "nearest_rtp": self.nearest,
                "note": self.note, "candidates": self.table.to_dicts()}


def _band_text(value) -> str | None:
    if value is None or isinstance(value, str):
        return value
    lo, hi = value
    return f"{'' if lo is None else lo}:{'' if hi is None else hi}"


def targets_from(rtp=None, house_edge=None, hit_frequency=None, sd=None, vi=None,
                 confidence: float = 0.90, total_rtp=None, element_of_risk=None) -> Targets:
    """The targets from bands given as ``"LO:HI"`` or ``(lo, hi)`` (RTP or house edge; total-bet
    RTP or element of risk)."""
    if (rtp is None) == (house_edge is None):
        raise DesignError("--rtp/--house-edge: give exactly one band, e.g. --rtp 0.965:0.970")
    if total_rtp is not None and element_of_risk is not None:
        raise DesignError("--total-rtp/--element-of-risk: give at most one band (the total-bet "
                          "RTP is 1 - the element of risk)")
    if not 0 < confidence < 1:
        raise DesignError(f"--confidence: got {confidence}; allowed: between 0 and 1, e.g. 0.90")
    if rtp is not None:
        band = parse_band(_band_text(rtp), "--rtp", percent_above=2)
    else:
        band = _flipped(parse_band(_band_text(house_edge), "--house-edge", percent_above=1))
    if element_of_risk is not None:
        total = _flipped(parse_band(_band_text(element_of_risk), "--element-of-risk",
                                    percent_above=1))
    else:
        total = parse_band(_band_text(total_rtp), "--total-rtp", percent_above=2)
    return Targets(band, parse_band(_band_text(hit_frequency), "--hit-frequency",
                                    percent_above=1),
                   parse_band(_band_text(sd), "--sd"), parse_band(_band_text(vi), "--vi"),
                   float(confidence), total)


def _flipped(b: Band) -> Band:
    """The band of 1 - x for a band of x (house edge -> RTP)."""
    return Band(None if b.hi is None else 1 - b.hi, None if b.lo is None else 1 - b.lo)


def search(config, bet: str, *, rtp=None, house_edge=None, hit_frequency=None, sd=None,
           vi=None, confidence: float = 0.90, total_rtp=None, element_of_risk=None,
           lines: list[str] | None = None, free: list[str] | None = None, step=1,
           monotone: bool = True, cap: int | None = None, near: bool = False,
           sort: str | None = None, reverse: bool = False, top: int = 10,
           strategy: str | None = None, counts=None, progress: bool = False) -> DesignResult:
    """Search ``bet``'s paytables of ``config`` (a name, a TOML path or loaded rules).

    lines: ``["LINE=LO:HI[:STEP]", "LINE=PAY", ...]`` free lines with bounds (whole numbers,
    ratios ``A/B`` or decimals, where the config's stakes pay them); free: line names free from
    half to twice their pay; other lines keep their pay. sort: the order of the candidates
    (:data:`~gpusim.designer.ranking.SORTS`; default ``target``, nearest the band's middle;
    ``near`` is ``sort="changes"``), ``reverse`` turns it round. total_rtp / element_of_risk: a
    band on a main-game bet's total-bet RTP. counts: the exact counts the bet is priced from
    (default: the cached ones, counted on first use).
    """
    from gpusim.config import ConfigError, load_config
    from gpusim.stats.moments import Z90, Z95, z_two_sided

    t0 = time.perf_counter()
    try:
        rules = load_config(config)
    except ConfigError as exc:
        raise DesignError(str(exc)) from None
    kind = bet_kind(rules, bet)
    targets = targets_from(rtp, house_edge, hit_frequency, sd, vi, confidence, total_rtp,
                           element_of_risk)
    if top < 0:
        raise DesignError(f"--top: got {top}; allowed: a whole number >= 0")
    sort = "changes" if near and sort is None else (sort or "target")
    if sort not in SORTS:
        raise DesignError(f"--sort: got {sort!r}; allowed: {', '.join(SORTS)}")
    if near and sort != "changes":
        raise DesignError(f"--near: it sorts by changes; got it with --sort {sort}")
    current = current_paytable(rules, bet)
    space = parse_space(bet, current, lines=lines, free=free, step=step, monotone=monotone,
                        cap=cap)
    _check_payable(rules, bet, space, lines or [], step)
    z = {0.90: Z90, 0.95: Z95}.get(targets.confidence) or z_two_sided(targets.confidence)
    if kind.kind == "main":
        strategy = strategy or (rules.default_strategy if rules.default_strategy
                                in kind.strategies else next(iter(kind.strategies)))
        if strategy not in kind.strategies:
            raise DesignError(f"--strategy: got {strategy!r}; the designer re-optimises "
                              f"{', '.join(kind.strategies)}")
        model = main_model(rules, bet, strategy, counts=counts, progress=progress,
                           space=narrowed(space))
        text = getattr(model, "strategy_text", None) or f"strategy {strategy} re-optimised for each"
    else:
        model = side_bet_model(rules, bet, strategy, counts=counts, progress=progress,
                               space=narrowed(space))
        strategy = getattr(model, "strategy", None)
        text = getattr(model, "strategy_text", None)
    if space.denom > 1:
        if not hasattr(model, "scaled"):
            raise DesignError(f"--line: {bet} is searched in whole pays only; got pays in "
                              f"units of 1/{space.denom}")
        model = model.scaled(space.denom)
    shown = _shown(kind.kind, model)
    if not targets.total_rtp.open and "total_rtp" not in shown:
        raise DesignError(f"--total-rtp/--element-of-risk: {bet} is a side bet; the total-bet "
                          "RTP is a main-game figure (allowed with a main-game bet's paytable)")
    stats: dict = {}
    count, best = _run(model, space, targets, top, sort, reverse, z, stats)
    nearest = None
    if count == 0:
        nearest = _nearest(model, space, targets, z)
    table = _frame(model, space, best, shown)
    cur_fig = _current_figures(model, space, z)
    note = "; ".join(n for n in (kind.note, getattr(model, "note", None), stats.get("note"))
                     if n) or None
    return DesignResult(rules.name, bet, kind.kind, space.names, current, space.size, count,
                        table, targets, time.perf_counter() - t0, strategy, nearest, note,
                        rules, stats, cur_fig, shown, sort, reverse, text)


def design(config, bet: str, **kw):
    """The ranked candidates of :func:`search` as a polars DataFrame: rank, one column per
    paytable line (ints; the config's ``"A:B"`` text where a search holds ratios), rtp,
    house_edge, hit_frequency, sd, vi (and for a main game element_of_risk, total_rtp,
    call_rate; for a side bet a fold forfeits main_rtp, call_rate), changes (lines that differ
    from the config), rtp_exact."""
    return search(config, bet, **kw).table


def _check_payable(rules, bet: str, space, lines: list[str], step) -> None:
    """Refuse, in one line, a ratio pay the config cannot pay (its stakes would pay a
    fraction of a money unit, or its paytable takes whole pays only): one config per line and
    denominator is read."""
    if space.denom == 1:
        return
    pays = {ln.name: space.pay(ln.current) for ln in space.lines}
    for ln in space.lines:
        if not ln.free:
            continue
        seen: set[int] = set()
        for v in ln.values:
            p = space.pay(v)
            if p.denominator == 1 or p.denominator in seen:
                continue
            seen.add(p.denominator)
            try:
                with_paytable(rules, bet, {**pays, ln.name: p})
            except DesignError as exc:
                given = next((t for t in lines if t.partition("=")[0].strip() == ln.name),
                             None)
                own = given is not None and (given.count(":") == 2 or any(
                    "/" in x or "." in x for x in given.partition("=")[2].split(":")))
                field = f"--line {given}" if own else f"--step {step}"
                raise DesignError(f"{field}: {bet}.{ln.name} = {pay_text(p)} cannot be paid "
                                  f"in {rules.name}: {exc}") from None


def _shown(kind: str, model) -> tuple[str, ...]:
    from gpusim.designer.maingame import MAIN_FIGURES
    from gpusim.designer.sidebet import SIDE_FIGURES

    return tuple(getattr(model, "shown", None) or (MAIN_FIGURES if kind == "main"
                                                   else SIDE_FIGURES))


def _separable(model) -> bool:
    return hasattr(model, "gains")


def _run(model, space, targets, top, sort, reverse, z, stats=None):
    if hasattr(model, "price"):
        # a model that prices whole candidates (a described game's, re-solved per candidate)
        from gpusim.designer.priced import search_priced

        return search_priced(model, space, targets, top=top, sort=sort, reverse=reverse, z=z,
                             stats=stats)
    if not _separable(model):
        from gpusim.designer.maingame import search_main

        return search_main(model, space, targets, top=top, sort=sort, reverse=reverse, z=z,
                           stats=stats)
    from gpusim.designer.sidebet import search_side_bet

    return search_side_bet(model, space, targets, top=top, sort=sort, reverse=reverse, z=z)


def _nearest(model, space, targets, z) -> float | None:
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
        t = Targets(wide, targets.hit_frequency, targets.sd, targets.vi, targets.confidence,
                    targets.total_rtp)
        n, best = _run(model, space, t, 1, "target", False, z)
        if n:
            if "s" in best.extra:  # a separable model: its exact sum, rounded once
                return float(1 + Fraction(int(best.extra["s"][0]), model.den))
            return float(best.extra["rtp"][0])
        if wide.lo == 0 and width > 4:
            return None
        width *= 4
    return None


def _pay_column(values: np.ndarray, space):
    """A line's pays as the table shows them: ints, or the config's text where the space holds
    ratios."""
    if space.denom == 1:
        return np.asarray(values, dtype=np.int64)
    return [str(pay_text(space.pay(v))) for v in values]


def _frame(model, space, best, shown):
    import polars as pl

    names = list(space.names)
    if best.pays is None:
        pays = np.zeros((0, len(names)), dtype=np.int64)
        extra: dict = {}
    else:
        pays, extra = best.pays, dict(best.extra)
    if _separable(model) and len(pays):
        # the shown figures exact, as the exact report rounds them (the search ranks on floats)
        extra.update({k: np.array(v, dtype=object if k == "rtp_exact" else float)
                      for k, v in _exact(model, pays, extra["s"]).items()})
    cols: dict = {"rank": np.arange(1, len(pays) + 1, dtype=np.int64)}
    for j, name in enumerate(names):
        cols[name] = _pay_column(pays[:, j], space)
    for f in shown:
        cols[f] = np.asarray(extra.get(f, np.zeros(0)), dtype=float)
    cols["changes"] = (pays != space.current[None, :]).sum(axis=1).astype(np.int64)
    cols["rtp_exact"] = [str(v) for v in extra.get("rtp_exact", [])]
    over = {"rtp_exact": pl.String}
    if space.denom > 1:
        over |= {name: pl.String for name in names}
    return pl.DataFrame(cols, schema_overrides=over)


def _exact(model, pays: np.ndarray, s) -> dict[str, list]:
    """A separable model's shown figures, exact: RTP and house edge from its integer sums, the
    model's own others (``exact``, where it has one)."""
    from gpusim.designer.sidebet import exact_rtp

    out = exact_rtp(s, model.den)
    if hasattr(model, "exact"):
        out |= model.exact(pays, s)
    return out


def _current_figures(model, space, z) -> dict:
    """The config's own paytable priced as the candidates are: {figure: value}."""
    cur = space.current[None, :]
    if hasattr(model, "price"):
        from gpusim.designer.priced import priced_figures

        fig = priced_figures(model.price([tuple(int(v) for v in cur[0])])[0], model.unit, z)
    elif not _separable(model):
        from gpusim.designer.maingame import price_paytables

        fig = {k: v[0] for k, v in price_paytables(model, cur, z).items()}
    else:
        s = np.array([int(model.offset) + sum(int(model.gains(i, cur[:, i])[0])
                                              for i in range(cur.shape[1]))], dtype=object)
        fig = {k: v[0] for k, v in model.figures(cur, s.astype(np.int64), z).items()}
        fig |= {k: v[0] for k, v in _exact(model, cur, s).items()}
    out = {k: (str(v) if k == "rtp_exact" else float(v)) for k, v in fig.items()
           if k in (*_shown("side", model), *_shown("main", model), "rtp_exact")}
    return out


def candidate(result: DesignResult, rank: int = 1) -> dict[str, int | str]:
    """{line: pay} of the candidate at ``rank`` (1 = best): an int for X:1, ``"A:B"`` for a
    ratio."""
    if not 1 <= rank <= result.table.height:
        raise DesignError(f"--pick: got {rank}; the table holds candidates 1 .. "
                          f"{result.table.height}")
    row = result.table.row(rank - 1, named=True)
    return {ln: row[ln] if isinstance(row[ln], str) else int(row[ln]) for ln in result.lines}


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
        # below the top level the keys keep their order (a described game shows its bets, hands
        # and paytables in file order, and its base bet is the first main one): a table before
        # a plain value is inline, those after it [a.b]
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
