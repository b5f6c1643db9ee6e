"""Solving, caching and loading: enumeration counts, decision tables, exact reports.

Two kinds of stored results:

- *counts* (large, paytable-free): Casino Hold'em outcome counts per (flop class, hole) depend
  only on the dealer qualifier; Texas Hold'em Bonus river-level counts only on
  ``ante_pays_from``. Kept in the user's cache directory
  (``platformdirs.user_cache_dir("gpusim")/exact``), never shipped.
- *decision tables* (small bit tables per strategy): shipped for every shipped config in
  ``gpusim/data/tables/<config>.npz`` with ``provenance.json`` (sha256 of each file, the config
  hash, the command that regenerates them). For another config they are solved on demand and
  cached under the config hash.

Table layout (bits packed with ``numpy.packbits``, row-major):

- Casino Hold'em ``call/<strategy>``: (1755, 1326) = (flop class, hole index after relabelling
  the suits into the class's canonical suits), see :mod:`gpusim.index`.
- Texas Hold'em Bonus ``preflop/<strategy>`` (169,) in ``HAND_CLASSES`` order; ``turn/<s>``
  (1755, 1326) by flop class; ``river/<s>`` (16432, 1326) by 4-card board class.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gpusim.exact._parallel import default_workers

__all__ = [
    "CH_STRATEGIES",
    "THB_STRATEGIES",
    "TABLE_DIR",
    "cache_dir",
    "ch_counts",
    "decision_tables",
    "exact_report",
    "file_sha256",
    "thb_river_counts",
    "write_shipped_tables",
]

TABLE_DIR = Path(__file__).resolve().parent.parent / "data" / "tables"
CH_STRATEGIES = ("optimal", "optimal-main")
THB_STRATEGIES = ("optimal", "win-over-half-ev")
_FORMAT = 1


def cache_dir() -> Path:
    """``platformdirs.user_cache_dir("gpusim")/exact`` (``GPUSIM_CACHE_DIR`` overrides)."""
    env = os.environ.get("GPUSIM_CACHE_DIR")
    if env:
        base = Path(env)
    else:
        import platformdirs

        base = Path(platformdirs.user_cache_dir("gpusim"))
    d = base / "exact"
    d.mkdir(parents=True, exist_ok=True)
    return d


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _atomic_savez(path: Path, **arrays) -> None:
    tmp = path.with_name(path.name + f".tmp{os.getpid()}.npz")
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, path)


def _progress_bar(label: str) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A rich progress bar on stderr (silent when stderr is not a terminal)."""
    if not sys.stderr.isatty():
        return (lambda done, total: None), (lambda: None)
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    prog = Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                    TimeRemainingColumn(), transient=True)
    prog.start()
    task = prog.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        prog.update(task, completed=done, total=total)

    return update, prog.stop


# --- counts (cached) ------------------------------------------------------------------------------


def _solver(cpu, name: str, backend: str):
    """The count solver of a backend: ``cpu`` (worker processes) or ``cupy`` (the CUDA kernel
    of :mod:`gpusim.exact.cupy_backend`, same counts)."""
    if backend == "cpu":
        return lambda *a, **kw: cpu(*a, **kw, workers=default_workers())
    if backend == "cupy":
        from gpusim.exact import cupy_backend

        return getattr(cupy_backend, name)
    raise ValueError(f"backend {backend!r}: allowed 'cpu', 'cupy'")


def ch_counts(rules, *, progress: bool = True, backend: str = "cpu"):
    """Casino Hold'em counts for the config's dealer qualifier (cached)."""
    from gpusim.exact.casino_holdem import ChCounts, qualifier_rank, solve_counts

    q = qualifier_rank(rules)
    path = cache_dir() / f"ch_counts_q{q:08x}_v{_FORMAT}.npz"
    if path.is_file():
        z = np.load(path)
        return ChCounts(**{k: z[k] for k in ("flops", "weights", "counts", "valid",
                                              "bonus_rank")}, qualifier=int(z["qualifier"]))
    update, stop = _progress_bar("Casino Hold'em: flop classes") if progress else (None, None)
    try:
        c = _solver(solve_counts, "solve_counts_cupy", backend)(q, progress=update)
    finally:
        if stop:
            stop()
    _atomic_savez(path, flops=c.flops, weights=c.weights, counts=c.counts, valid=c.valid,
                  bonus_rank=c.bonus_rank, qualifier=np.int64(c.qualifier))
    return c


def _ante_from(rules) -> int:
    from gpusim.config import CATEGORY_KEYS

    return CATEGORY_KEYS.index(rules.ante_pays_from)


def thb_river_counts(rules, *, progress: bool = True, backend: str = "cpu"):
    """Texas Hold'em Bonus stage-1 counts for the config's ``ante_pays_from`` (cached)."""
    from gpusim.exact.holdem_bonus import RiverCounts, solve_river

    a = _ante_from(rules)
    path = cache_dir() / f"thb_river_a{a}_v{_FORMAT}.npz"
    names = ("boards", "weights", "W", "L", "WX", "valid", "class_wins", "class_ties",
             "class_losses", "class_hands")
    if path.is_file():
        z = np.load(path)
        return RiverCounts(**{k: z[k] for k in names}, ante_from=int(z["ante_from"]))
    update, stop = _progress_bar("Hold'em Bonus: 4-card board classes") if progress else (
        None, None)
    try:
        r = _solver(solve_river, "solve_river_cupy", backend)(a, progress=update)
    finally:
        if stop:
            stop()
    _atomic_savez(path, **{k: getattr(r, k) for k in names}, ante_from=np.int64(a))
    return r


# --- decision tables ------------------------------------------------------------------------------


def _solve_tables(rules, progress: bool, backend: str = "cpu") -> dict[str, np.ndarray]:
    """Every table strategy's decision tables for a config (unpacked bool arrays)."""
    if rules.game == "casino_holdem":
        from gpusim.exact.casino_holdem import optimal_decisions

        counts = ch_counts(rules, progress=progress, backend=backend)
        return {
            "call/optimal": optimal_decisions(counts, rules, with_side_bet=True),
            "call/optimal-main": optimal_decisions(counts, rules, with_side_bet=False),
        }
    from gpusim.exact.holdem_bonus import preflop_ev, river_rule, turn_pass

    river = thb_river_counts(rules, progress=progress, backend=backend)
    out = {}
    for name, rule in (("optimal", "optimal"), ("win-over-half-ev", "over_half")):
        rb = river_rule(river, rule)
        tp = turn_pass(river, rb, rule)
        num, den = preflop_ev(tp.joint)
        out[f"preflop/{name}"] = num > -den
        out[f"turn/{name}"] = tp.turn
        out[f"river/{name}"] = rb
    return out


def _pack(tables: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    out = {}
    for key, arr in tables.items():
        out[key.replace("/", "__") + "__bits"] = np.packbits(arr.astype(bool).ravel())
        out[key.replace("/", "__") + "__shape"] = np.array(arr.shape, dtype=np.int64)
    return out


def _unpack(z) -> dict[str, np.ndarray]:
    out = {}
    for name in z.files:
        if name.endswith("__bits"):
            base = name[: -len("__bits")]
            shape = tuple(int(v) for v in z[base + "__shape"])
            n = int(np.prod(shape))
            out[base.replace("__", "/")] = np.unpackbits(z[name], count=n).astype(bool).reshape(
                shape)
    return out


def _provenance() -> dict:
    path = TABLE_DIR / "provenance.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def decision_tables(
    rules, *, solve: bool = True, progress: bool = True, backend: str = "cpu"
) -> dict[str, np.ndarray]:
    """Decision tables of the config: shipped (checksum verified), cached, or solved now
    (the counts by ``backend``: ``cpu`` or ``cupy``).

    Raises FileNotFoundError when none exist and ``solve`` is False.
    """
    h = rules.config_hash
    for entry in _provenance().values():
        if entry.get("config_hash") == h:
            path = TABLE_DIR / entry["file"]
            if file_sha256(path) != entry["sha256"]:
                raise ValueError(f"table {path.name}: sha256 does not match provenance.json")
            with np.load(path) as z:
                return _unpack(z)
    path = cache_dir() / f"tables_{h[:16]}_v{_FORMAT}.npz"
    if path.is_file():
        with np.load(path) as z:
            return _unpack(z)
    if not solve:
        raise FileNotFoundError(
            f"no decision tables for config {rules.name!r} (hash {h[:12]}); "
            f"run `gpusim exact {rules.name}` to solve them"
        )
    tables = _solve_tables(rules, progress, backend)
    _atomic_savez(path, **_pack(tables))
    return tables


def write_shipped_tables(rules, command: str, *, backend: str = "cpu") -> dict:
    """Solve and write ``gpusim/data/tables/<config>.npz``; update provenance.json."""
    tables = _solve_tables(rules, progress=True, backend=backend)
    TABLE_DIR.mkdir(parents=True, exist_ok=True)
    path = TABLE_DIR / f"{rules.name}.npz"
    _atomic_savez(path, **_pack(tables))
    prov = _provenance()
    prov[rules.name] = {
        "file": path.name,
        "sha256": file_sha256(path),
        "config_hash": rules.config_hash,
        "game": rules.game,
        "tables": {k: list(v.shape) for k, v in tables.items()},
        "command": command,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    (TABLE_DIR / "provenance.json").write_text(json.dumps(prov, indent=2, sort_keys=True) + "\n")
    return prov[rules.name]


# --- reports --------------------------------------------------------------------------------------


def exact_report(
    rules, strategy: str = "optimal", *, progress: bool = True, backend: str = "cpu"
) -> dict:
    """The exact report of a config under a strategy (see docs/exact.md for the JSON).

    backend: what computes the enumeration counts when they are not cached, ``cpu`` or
    ``cupy`` (the same counts; the pricing always runs on the CPU)."""
    if rules.game == "casino_holdem":
        from gpusim.exact.casino_holdem import analyse

        counts = ch_counts(rules, progress=progress, backend=backend)
        dec = ch_strategy_table(rules, strategy, counts, backend=backend)
        return analyse(counts, rules, dec, strategy)
    from gpusim.exact.holdem_bonus import analyse as thb_analyse
    from gpusim.exact.holdem_bonus import turn_pass

    river = thb_river_counts(rules, progress=progress, backend=backend)
    pre, turn, riv = thb_strategy_tables(rules, strategy, river, backend=backend)
    tp = turn_pass(river, riv, turn)
    return thb_analyse(river, tp, pre, rules, strategy)


def ch_strategy_table(rules, strategy: str, counts, *, backend: str = "cpu") -> np.ndarray:
    """(1755, 1326) call table of any Casino Hold'em strategy: a table strategy, or any
    registered strategy's decide() applied to every (flop class, hole) representative."""
    if strategy in CH_STRATEGIES:
        return decision_tables(rules, backend=backend)[f"call/{strategy}"]
    from gpusim.strategy import get_strategy

    strat = get_strategy(strategy, rules)
    flops = counts.flops
    rows, holes = np.nonzero(counts.valid)
    from gpusim.index import subsets

    hc = subsets(2).astype(np.int32)[holes]
    cards = _dummy_round(hc, flops[rows], n_board=3)
    call = np.asarray(strat.decide(cards)["call"], dtype=bool)
    out = np.zeros(counts.valid.shape, dtype=bool)
    out[rows, holes] = call
    return out


def _dummy_round(holes: np.ndarray, board: np.ndarray, n_board: int) -> np.ndarray:
    """(N, 9) rounds with the given hole and board cards; unseen slots get distinct filler
    cards (the strategy contract forbids looking at them)."""
    n = len(holes)
    cards = np.zeros((n, 9), dtype=np.int32)
    cards[:, 0:2] = holes
    cards[:, 4 : 4 + n_board] = board
    used = np.zeros((n, 52), dtype=bool)
    r = np.arange(n)[:, None]
    used[r, holes] = True
    used[r, board] = True
    free = np.argsort(used, axis=1, kind="stable")[:, : 9 - 2 - n_board].astype(np.int32)
    slots = [s for s in (2, 3, 4, 5, 6, 7, 8) if s >= 4 + n_board or s in (2, 3)]
    cards[:, slots] = free
    return cards


def thb_strategy_tables(rules, strategy: str, river, *, backend: str = "cpu"):
    """(preflop (169,), turn (1755, 1326), river (16432, 1326)) bool tables of a strategy.

    Table strategies come from :func:`decision_tables`; any other registered strategy's
    decide() is applied to one representative per class (the flop decision per starting-hand
    class, the turn per (flop class, hole), the river per (4-card board class, hole) with the
    lowest card of the board as the turn card). This is exact for strategies that, like every
    rule list shipped, depend on the cards seen up to suit relabelling and on the 4-card board
    as a set.
    """
    if strategy in THB_STRATEGIES:
        t = decision_tables(rules, backend=backend)
        return t[f"preflop/{strategy}"], t[f"turn/{strategy}"], t[f"river/{strategy}"]
    from gpusim.cards import HAND_CLASSES, class_members
    from gpusim.index import board_classes, subsets
    from gpusim.strategy import get_strategy

    strat = get_strategy(strategy, rules)
    reps = np.array([class_members(c)[0] for c in HAND_CLASSES], dtype=np.int32)
    filler = _dummy_round(reps, np.zeros((169, 0), dtype=np.int32), n_board=0)
    pre = np.asarray(strat.decide(filler)["flop"], dtype=bool)
    if strategy == "win-over-half":
        # the game engine's seed-000 rule counts P(win) per round (too slow to apply to every
        # class); its Turn/River rule is exactly the over-half tables, its flop rule its own
        t = decision_tables(rules, backend=backend)
        return pre, t["turn/win-over-half-ev"], t["river/win-over-half-ev"]
    holes = subsets(2).astype(np.int32)
    b3 = board_classes(3)
    meets = (holes[None, :, :, None] == b3.reps[:, None, None, :]).any(axis=(2, 3))
    rows, hs = np.nonzero(~meets)
    d = strat.decide(_dummy_round(holes[hs], b3.reps[rows], n_board=3))
    turn = np.zeros((b3.n_classes, 1326), dtype=bool)
    turn[rows, hs] = np.asarray(d["turn"], dtype=bool)
    riv = np.zeros_like(river.valid)
    r4, h4 = np.nonzero(river.valid)
    for s in range(0, len(r4), 2_000_000):
        rr, hh = r4[s : s + 2_000_000], h4[s : s + 2_000_000]
        board = river.boards[rr]  # ascending: the flop is the top three, the turn the lowest
        order = np.concatenate([board[:, 1:], board[:, :1]], axis=1)
        dd = strat.decide(_dummy_round(holes[hh], order, n_board=4))
        riv[rr, hh] = np.asarray(dd["river"], dtype=bool)
    return pre, turn, riv


def is_cached(rules, strategy: str) -> bool:
    """Whether the exact analysis takes seconds, not minutes: its enumeration counts are cached
    and (Texas Hold'em Bonus) the strategy is a table strategy; a rule-list strategy there is
    applied to every river situation (about a minute)."""
    if rules.game == "holdem_bonus" and strategy not in THB_STRATEGIES:
        return False
    if rules.game == "casino_holdem":
        from gpusim.exact.casino_holdem import qualifier_rank

        name = f"ch_counts_q{qualifier_rank(rules):08x}_v{_FORMAT}.npz"
    else:
        name = f"thb_river_a{_ante_from(rules)}_v{_FORMAT}.npz"
    return (cache_dir() / name).is_file()
