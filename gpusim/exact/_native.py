"""The compiled forms of the exact solver's CPU loops (``kernels/exact_cpu_boards.cpp``): the
hands' ranks as sort keys (:func:`rank_keys_native`, the evaluator of ``kernels/evaluate.cuh``;
:func:`rank_native` ranks whole hands), the per-board tie runs and inclusion-exclusion
(:func:`sorted_counts_native`), the second stage's binned sums (:func:`binned_sums_native`) and
Texas Hold'em Bonus's 5-card cells with their per-starting-hand sums (:func:`thb_cells_native`)
and the community-card solver's 5-card cells (:func:`community_cells_native`).
Built once with the system C++ compiler into the user's cache, loaded with ctypes. A solve that
runs them never imports JAX (whose import alone takes about 2 s).

They give the numpy (and JAX) forms' counts exactly (``tests/test_exact_native.py``) and run
several times faster (``benchmarks/exact_stage.py``, ``benchmarks/exact.py --pass both``). Where
the library cannot be built (no compiler, a failed build) the solver keeps the numpy forms (and
JAX's evaluator); :func:`status` says which form runs and why.

``GPUSIM_EXACT_NATIVE``: unset or ``auto`` builds it if a compiler is found; ``0`` never uses it;
``1`` requires it (a build failure is an error instead of the numpy form).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import numpy as np

from gpusim.exact.cache import cache_dir

__all__ = ["ENV", "NativeError", "binned_sums_native", "community_cells_native", "loaded_library",
           "rank_keys_native", "rank_native", "sorted_counts_native", "status",
           "thb_cells_native"]

ENV = "GPUSIM_EXACT_NATIVE"
_SOURCE = "exact_cpu_boards.cpp"
_HEADERS = ("evaluate.cuh",)  # included from the kernels folder
_ABI = 7
# No -march=native: a cache folder shared by a cluster's nodes must not hold a library that
# only some of their CPUs can run (and in a throwaway test -march=native and x86-64-v3 were not
# measurably faster than the baseline on the binned sums).
_FLAGS = ("-O3", "-std=c++17", "-shared", "-fPIC", "-fno-math-errno")


def _flags() -> tuple[str, ...]:
    """The build flags: :data:`_FLAGS`, plus ``-mpopcnt`` on an x86-64 CPU that has the
    instruction. Without it each of the evaluator's population counts is a library call, and
    ranking runs about 3x slower (63.7 against 21.3 us a board, a throwaway measurement). The
    flags are part of the library's name, so a node without the instruction builds its own."""
    if platform.machine().lower() in ("x86_64", "amd64") and _cpu_flag("popcnt"):
        return (*_FLAGS, "-mpopcnt")
    return _FLAGS


def _cpu_flag(name: str) -> bool:
    try:
        with open("/proc/cpuinfo") as f:
            return any(line.startswith("flags") and name in line.split() for line in f)
    except OSError:
        return False


class NativeError(RuntimeError):
    """The compiled pass was required (``GPUSIM_EXACT_NATIVE=1``) but could not be built."""


def _mode() -> str:
    value = os.environ.get(ENV, "auto").strip().lower() or "auto"
    if value not in ("auto", "0", "1"):
        raise ValueError(f"{ENV}: {value!r} is not allowed; use auto, 0 or 1")
    return value


def _compiler() -> str | None:
    for name in (os.environ.get("CXX"), "c++", "g++", "clang++"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def _source() -> Path:
    from gpusim.cuda import kernel_dir

    return kernel_dir() / _SOURCE


def _build(cxx: str) -> Path:
    """The library for this source, compiler and machine: from the cache, or compiled into it
    (under a temporary name, then moved into place, so concurrent builds never see half a
    file)."""
    src = _source()
    version = subprocess.run([cxx, "--version"], capture_output=True, text=True,
                             timeout=60).stdout  # fmt: skip
    headers = [(src.parent / h).read_bytes() for h in _HEADERS]
    digest = hashlib.sha256(
        b"\0".join([src.read_bytes(), *headers, version.encode(), " ".join(_flags()).encode(),
                    platform.machine().encode()])
    ).hexdigest()[:16]
    folder = cache_dir().parent / "native"
    folder.mkdir(parents=True, exist_ok=True)
    lib = folder / f"exact_cpu_boards_{digest}.so"
    if lib.is_file():
        return lib
    tmp = folder / f"{lib.name}.tmp{os.getpid()}"
    proc = subprocess.run([cxx, *_flags(), f"-I{src.parent}", str(src), "-o", str(tmp)],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    if proc.returncode != 0:
        tmp.unlink(missing_ok=True)
        first = (proc.stderr.strip().splitlines() or ["no message"])[0]
        raise NativeError(f"{Path(cxx).name} could not build {_SOURCE}: {first}")
    os.replace(tmp, lib)
    return lib


@lru_cache(maxsize=1)
def _load() -> tuple[ctypes.CDLL | None, str]:
    mode = _mode()
    if mode == "0":
        return None, f"numpy ({ENV}=0)"
    cxx = _compiler()
    try:
        if cxx is None:
            raise NativeError("no C++ compiler (c++, g++ or clang++; or $CXX) was found")
        path = _build(cxx)
        lib = ctypes.CDLL(str(path))
        if lib.gpusim_exact_cpu_abi() != _ABI:
            raise NativeError(f"{path.name} has another entry-point version")
    except (NativeError, OSError, subprocess.SubprocessError) as err:
        if mode == "1":
            raise NativeError(f"{ENV}=1: {err}") from err
        return None, f"numpy (the compiled pass is off: {err})"
    u64, u32, i32, i64, u8 = (
        np.ctypeslib.ndpointer(t, flags="C_CONTIGUOUS")
        for t in (np.uint64, np.uint32, np.int32, np.int64, np.uint8)
    )
    fn = lib.gpusim_exact_sorted_counts
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_int64, ctypes.c_int32, ctypes.c_int32, u64, i32, i32, i32,
                   ctypes.c_uint32, ctypes.c_int32, i64, u32, u8, i32, i32, i32, ctypes.c_void_p]
    fn = lib.gpusim_exact_rank_keys
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_int64, ctypes.c_int32, i32, ctypes.c_int32, i32, ctypes.c_int32, i32,
                   i32, u64]
    fn = lib.gpusim_exact_rank
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_int64, ctypes.c_int32, i32, u32]
    fn = lib.gpusim_exact_thb_cells
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_int64, ctypes.c_int32, i64, u32, i32, i32, i32, ctypes.c_uint32,
                   ctypes.c_int32, i32, i64, ctypes.c_int64, i64, i64]
    fn = lib.gpusim_exact_community_cells
    fn.restype = ctypes.c_int
    vp = ctypes.c_void_p
    fn.argtypes = [ctypes.c_int64, ctypes.c_int32, i64, ctypes.c_int64, u32, i32, i32, i32, i32,
                   ctypes.c_uint32, ctypes.c_int64, vp, ctypes.c_int32, vp, vp, ctypes.c_int32,
                   vp, ctypes.c_int32, vp, vp, vp, vp, vp, vp, ctypes.c_int32, vp, vp, vp]
    fn = lib.gpusim_exact_binned_sums
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_int64, i64, i64, i64, ctypes.c_void_p, i32, ctypes.c_void_p,
                   ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p), i32,
                   ctypes.c_int64, i64]
    return lib, f"compiled ({Path(cxx).name}, {path.name})"


def loaded_library() -> ctypes.CDLL | None:
    """The loaded library, or None where the numpy form runs (see :func:`status`)."""
    return _load()[0]


def status() -> str:
    """Which form of the tie runs and inclusion-exclusion a solve in this process uses, and why."""
    return _load()[1]


def rank_keys_native(boards: np.ndarray, rem: np.ndarray, pi: np.ndarray,
                     pj: np.ndarray) -> np.ndarray:
    """Every hand's sort key on nb boards: (nb, P) uint64 ``rank << 11 | p``, the rank of board
    i's k cards (3..5) with its unseen cards ``rem[i, pi[p]]`` and ``rem[i, pj[p]]`` (boards:
    (nb, k), rem: (nb, 52 - k) ascending; the ranks are
    :func:`gpusim.evaluator.evaluate_board_pairs`')."""
    lib = loaded_library()
    if lib is None:
        raise NativeError(status())
    boards = np.ascontiguousarray(boards, dtype=np.int32)
    rem = np.ascontiguousarray(rem, dtype=np.int32)
    nb, k = boards.shape
    pi = np.ascontiguousarray(pi, dtype=np.int32)
    pj = np.ascontiguousarray(pj, dtype=np.int32)
    keys = np.empty((nb, len(pi)), dtype=np.uint64)
    n = rem.shape[1] if rem.ndim == 2 else -1
    if rem.shape[0] != nb or len(pj) != len(pi) or (len(pi) and max(pi.max(), pj.max()) >= n):
        raise ValueError(f"rem, pi, pj: shapes {rem.shape}, {pi.shape}, {pj.shape} do not fit "
                         f"{nb} boards of {k} cards")
    if lib.gpusim_exact_rank_keys(nb, k, boards, n, rem, len(pi), pi, pj, keys) != 0:
        raise ValueError(f"boards: {k} cards, {n} unseen, {len(pi)} hands, or a card outside "
                         "0..51, is not allowed; use 3..5 cards, the 52 - k others, every pair")
    return keys


def rank_native(cards: np.ndarray) -> np.ndarray:
    """Ranks of hands of 5 to 7 distinct cards: (..., k) int -> (...,) uint32, as
    :func:`gpusim.evaluator.evaluate`."""
    lib = loaded_library()
    if lib is None:
        raise NativeError(status())
    c = np.ascontiguousarray(cards, dtype=np.int32)
    k = c.shape[-1]
    out = np.empty(c.shape[:-1], dtype=np.uint32)
    if lib.gpusim_exact_rank(out.size, k, c.reshape(-1, k), out.reshape(-1)) != 0:
        raise ValueError(f"cards: {k} cards a hand, or a card outside 0..51, is not allowed; "
                         "use 5 to 7 cards, codes 0..51")
    return out


def sorted_counts_native(key: np.ndarray, pi: np.ndarray, pj: np.ndarray, rem: np.ndarray,
                         qualifier: int | None) -> dict[str, np.ndarray | None]:
    """The compiled pass over nb boards. key: (nb, P) uint64 ``rank << 11 | hand``, sorted
    along each board; pi, pj: (P,) the hands' local card indices; rem: (nb, n) each board's
    unseen cards, ascending. Returns order (nb, P) intp, rank (nb, P) uint32 sorted, cards
    (nb, P, 2) uint8, hole, below, equal, not_qualified (nb, P) int32 (None without a
    qualifier): :class:`gpusim.exact.boards.SortedCounts`'s fields."""
    lib = loaded_library()
    if lib is None:
        raise NativeError(status())
    key = np.ascontiguousarray(key, dtype=np.uint64)
    nb, npairs = key.shape
    n = int(pj[-1]) + 1
    rem = np.ascontiguousarray(rem, dtype=np.int32)
    if rem.shape != (nb, n):
        raise ValueError(f"rem: shape {rem.shape} is not allowed; use ({nb}, {n})")
    order = np.empty((nb, npairs), dtype=np.int64)
    srank = np.empty((nb, npairs), dtype=np.uint32)
    cards = np.empty((nb, npairs, 2), dtype=np.uint8)
    hole, below, equal = (np.empty((nb, npairs), dtype=np.int32) for _ in range(3))
    nq = None if qualifier is None else np.empty((nb, npairs), dtype=np.int32)
    rc = lib.gpusim_exact_sorted_counts(
        nb, n, npairs, key, np.ascontiguousarray(pi, dtype=np.int32),
        np.ascontiguousarray(pj, dtype=np.int32), rem, 0 if qualifier is None else int(qualifier),
        0 if qualifier is None else 1, order, srank, cards, hole, below, equal,
        None if nq is None else nq.ctypes.data)
    if rc != 0:
        raise ValueError(f"key: shape {key.shape} is not allowed; use (nb, C(n, 2)), n in 2..49")
    return {"order": order.astype(np.intp, copy=False), "rank": srank, "cards": cards,
            "hole": hole, "below": below, "equal": equal, "not_qualified": nq}


def thb_cells_native(cells: np.ndarray, ids: np.ndarray, rank: np.ndarray, hole: np.ndarray,
                     below: np.ndarray, equal: np.ndarray, royal: int, ante_from: int,
                     hole_class: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Texas Hold'em Bonus's cells of nb boards written into rows ``ids`` of ``cells`` ((T,
    1326) int64, C-contiguous; memory-mapped rows are written in place), and their
    per-starting-hand sums. rank, hole, below, equal: (nb, P) in each board's sorted order
    (:class:`gpusim.exact.boards.SortedCounts`); royal: the royal flush's rank (pay class 9);
    hole_class: (1326,) 0..168; weight: (nb,) raw boards each board stands for. Returns (3, 1690)
    int64 by hole class x 10 + pay class: wins, ties, holes, each x weight."""
    lib = loaded_library()
    if lib is None:
        raise NativeError(status())
    if cells.dtype != np.int64 or not cells.flags.c_contiguous or cells.shape[1:] != (1326,):
        raise ValueError(f"cells: {cells.dtype} {cells.shape} is not allowed; use C-contiguous "
                         "(T, 1326) int64")
    rank = np.ascontiguousarray(rank, dtype=np.uint32)
    nb, p = rank.shape
    hole, below, equal = (np.ascontiguousarray(a, dtype=np.int32) for a in (hole, below, equal))
    if any(a.shape != rank.shape for a in (hole, below, equal)):
        raise ValueError(f"hole, below, equal: each must have the ranks' shape {rank.shape}")
    hole_class = np.ascontiguousarray(hole_class, dtype=np.int32)
    if hole_class.shape != (1326,) or hole_class.min() < 0 or hole_class.max() > 168:
        raise ValueError("hole_class: use (1326,) values in 0..168")
    acc = np.zeros((3, 1690), dtype=np.int64)
    rc = lib.gpusim_exact_thb_cells(
        nb, p, np.ascontiguousarray(ids, dtype=np.int64), rank, hole, below, equal, int(royal),
        int(ante_from), hole_class, np.ascontiguousarray(weight, dtype=np.int64), len(cells),
        cells, acc)
    if rc != 0:
        raise ValueError(f"ids, hole or rank: a row outside 0..{len(cells) - 1}, a hole outside "
                         "0..1325 or a category above 9 is not allowed")
    return acc


def community_cells_native(tables: dict[str, np.ndarray], ids: np.ndarray, sc, qualifier: int,
                           total: int, n_high: int, *, high: np.ndarray | None = None,
                           class_of: tuple[tuple[np.ndarray, int], ...] = (),
                           sig: np.ndarray | None = None, river: tuple | None = None) -> None:
    """The community-card solver's cells of nb boards written into rows ``ids`` of ``tables``
    (``f`` int64, ``n`` int16, ``rc`` uint8, each (T, 1326) C-contiguous): the numpy form is
    :func:`gpusim.games.described.community_cells.cell_arrays`. ``sc``: the boards'
    :class:`~gpusim.exact.boards.SortedCounts` (with the counts below the qualifier). The high
    class: ``high`` (nb, P) int64, or the mixed radix of ``class_of`` (each a hand ranked as the
    player's: its (130,) class by category x 13 + named rank, and its number of classes). The
    river signature: ``sig`` (nb, P) int64, or ``river = (proc, child_start, child_kind,
    child_ref, radix, nets)`` the optimal river decisions (see ``kernels/exact_cpu_boards.cpp``),
    or neither (no river node)."""
    lib = loaded_library()
    if lib is None:
        raise NativeError(status())
    f, n, rc = tables["f"], tables["n"], tables["rc"]
    for name, t, dt in (("f", f, np.int64), ("n", n, np.int16), ("rc", rc, np.uint8)):
        if t.dtype != dt or not t.flags.c_contiguous or t.shape != (len(f), 1326):
            raise ValueError(f"tables.{name}: {t.dtype} {t.shape} is not allowed; use "
                             f"C-contiguous ({len(f)}, 1326) {np.dtype(dt).name}")
    srank = np.ascontiguousarray(sc.rank, dtype=np.uint32)
    nb, p = srank.shape
    hole, below, equal, nq = (np.ascontiguousarray(a, dtype=np.int32) for a in
                              (sc.hole, sc.below, sc.equal, sc.not_qualified))
    keep = []

    def ptr(a, dtype):
        if a is None:
            return None
        a = np.ascontiguousarray(a, dtype=dtype)
        keep.append(a)
        return a.ctypes.data

    n_class = np.array([k for _, k in class_of], np.int32)
    cls = np.concatenate([np.asarray(c, np.int16) for c, _ in class_of]) if class_of else None
    if cls is not None and (len(cls) != 130 * len(class_of) or cls.min() < 0 or
                            (cls.reshape(-1, 130) >= n_class[:, None]).any()):
        raise ValueError("class_of: use (130,) tables of classes below each hand's count")
    if high is None and int(np.prod(n_class, dtype=np.int64)) > n_high:
        raise ValueError(f"class_of: {int(np.prod(n_class))} classes is more than n_high {n_high}")
    proc = cs = kind = ref = radix = nets = None
    n_river = n_paths = 0
    if sig is None and river is not None:
        proc, cs, kind, ref, radix, nets = river
        n_river, n_paths = len(proc), len(nets)
    code = lib.gpusim_exact_community_cells(
        nb, p, np.ascontiguousarray(ids, dtype=np.int64), len(f), srank, hole, below, equal, nq,
        int(qualifier), int(total), ptr(high, np.int64), len(class_of), ptr(n_class, np.int32),
        ptr(cls, np.int16), int(n_high), ptr(sig, np.int64), n_river, ptr(proc, np.int32),
        ptr(cs, np.int32), ptr(kind, np.int32), ptr(ref, np.int32), ptr(radix, np.int32),
        ptr(nets, np.int64), n_paths, f.ctypes.data, n.ctypes.data, rc.ctypes.data)
    if code != 0:
        raise ValueError("ids, hole, a class or a river program: a row outside "
                         f"0..{len(f) - 1}, a hole outside 0..1325, a cell code above 255 or "
                         "a node out of range is not allowed")


_VTYPE = {np.dtype(np.int16): 0, np.dtype(np.int32): 1, np.dtype(np.float64): 2,
          np.dtype(np.int64): 3}


def binned_sums_native(values: list[np.ndarray], code: np.ndarray | None, cls: np.ndarray,
                       perm: np.ndarray, weight: np.ndarray, base: np.ndarray, n_bins: int,
                       offset: np.ndarray | None = None, code_stride: int = 1) -> np.ndarray:
    """The compiled binned sums (see :func:`gpusim.exact.fives.binned_sums`). values: one or
    two tables (T, 1326) of int16, int32, float64 (integers) or int64, C-contiguous (memory-mapped
    rows are read in place); code: (T, 1326) uint8 or None, its bin step ``code_stride``; cls,
    perm, weight, offset: (m,) int; base: (24, 1326) int. Returns (len(values), n_bins) int64."""
    lib = loaded_library()
    if lib is None:
        raise NativeError(status())
    if not 1 <= len(values) <= 2:
        raise ValueError(f"values: {len(values)} tables is not allowed; use 1 or 2")
    for v in values:
        if v.dtype not in _VTYPE or not v.flags.c_contiguous or v.shape[1:] != (1326,):
            raise ValueError(f"values: {v.dtype} {v.shape} is not allowed; use C-contiguous "
                             f"(T, 1326) int16, int32, float64 or int64")
    if code is not None and (code.dtype != np.uint8 or not code.flags.c_contiguous):
        raise ValueError(f"code: {code.dtype} is not allowed; use C-contiguous uint8")
    if not 0 < n_bins < 2**31:
        raise ValueError(f"n_bins: {n_bins} is not allowed; use 1..2**31-1")
    if not 0 <= code_stride * 255 < 2**31:
        raise ValueError(f"code_stride: {code_stride} is not allowed; use 0..{(2**31 - 1) // 255}")
    cls = np.ascontiguousarray(cls, dtype=np.int64)
    perm = np.ascontiguousarray(perm, dtype=np.int64)
    if len(cls) and not (0 <= cls.min() and all(cls.max() < len(v) for v in values)):
        raise ValueError("cls: a row index outside the tables is not allowed")
    if len(perm) and not (0 <= perm.min() and perm.max() < len(base)):
        raise ValueError(f"perm: a permutation outside 0..{len(base) - 1} is not allowed")
    if offset is not None:
        offset = np.ascontiguousarray(offset, dtype=np.int64)
    acc = np.zeros((len(values), n_bins), dtype=np.int64)
    ptrs = (ctypes.c_void_p * len(values))(*(v.ctypes.data for v in values))
    rc = lib.gpusim_exact_binned_sums(
        len(cls), cls, perm, np.ascontiguousarray(weight, dtype=np.int64),
        None if offset is None else offset.ctypes.data,
        np.ascontiguousarray(base, dtype=np.int32), None if code is None else code.ctypes.data,
        int(code_stride), len(values), ptrs,
        np.array([_VTYPE[v.dtype] for v in values], dtype=np.int32), n_bins, acc)
    if rc != 0:
        raise ValueError(f"base: a bin key falls outside 0..{n_bins - 1}")
    return acc
