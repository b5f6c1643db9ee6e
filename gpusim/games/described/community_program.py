"""The community-card solver's view of a description (:mod:`gpusim.games.described.community`):
where its points and paytable hands sit (:func:`community_shape`, which refuses in one line what
the solver cannot count) and the arrays one solve needs (:class:`Program`: the nets of every
terminal per cell code, built once and sent to the worker processes)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from gpusim.games.described.description import Description
from gpusim.games.described.layout import layout, threshold, tree
from gpusim.games.described.layout import nodes as _nodes
from gpusim.strategy import StrategyError

# engine (JAX) and solver (which imports it) are imported where a solve needs them: a game's
# spec asks community_shape, and reading or refusing a config must not import JAX

__all__ = ["FIELD", "N_SD", "CommunityShape", "Program", "check_strategy", "community_shape",
           "fill_unseen", "free_side_bets", "point_rule", "program"]

FIELD = 21
_M = (1 << FIELD) - 1
N_SD = 6
_FULL_DEALER = 990  # C(45, 2): the dealer's hidden hands on a full deck


@dataclass(frozen=True)
class CommunityShape:
    """Where a community game's points and paytable hands sit: ``level[k]`` the board cards
    point k sees (0, 3 or 5); ``hand_level[h]`` the board cards class hand h reads;
    ``qualifier`` the dealer's weakest qualifying packed rank (0: always)."""

    level: tuple[int, ...]
    hand_level: tuple[tuple[str, int], ...]
    qualifier: int


def _refuse(d: Description, what: str) -> ValueError:
    return ValueError(f"game {d.name!r}: {what}; the community-card solver counts two hole "
                      "cards and two hidden dealer cards against one five-card board, with "
                      "decisions before the flop, on the flop and on the river")


@cache
def community_shape(d: Description) -> CommunityShape:
    """The levels of a community game, or ValueError (one line) for what this solver cannot
    count."""
    cols = d.columns
    if "board" not in cols or d.showdown is None:
        raise _refuse(d, "no board or no showdown")
    if d.player != 2 or d.dealer != 2 or d.dealer_up or sum(d.streets) != 5:
        raise _refuse(d, f"cards {d.player} + {d.dealer} (up {d.dealer_up}) + "
                         f"{list(d.streets)} are not 2 + 2 + 5")
    if tuple(d.streets) not in ((3, 2), (3, 1, 1)):
        raise _refuse(d, f"streets {list(d.streets)} are not a flop of 3 then the turn and "
                         "the river (together or one by one)")
    board = cols["board"]
    player, dealer = cols["player"], cols["dealer"]
    ph, dh, qual = d.showdown
    if sorted(d.hand(ph).columns) != sorted(player + board) or d.hand(ph).ranking != "poker":
        raise _refuse(d, f"hands.{ph} is not the hole cards and the whole board")
    if sorted(d.hand(dh).columns) != sorted(dealer + board) or d.hand(dh).ranking != "poker":
        raise _refuse(d, f"hands.{dh} is not the dealer's cards and the whole board")
    starts = [0]
    for m in d.streets:
        starts.append(starts[-1] + m)
    allowed = set(starts)  # before the flop, and after each street
    level = [starts[p.street] for p in d.points]
    if level[0] > 3:
        raise _refuse(d, f"the first decision ({d.points[0].name}) sees {level[0]} board cards")
    hand_level = []
    for h in layout(d).class_hands:
        hd = d.hand(h)
        if set(hd.columns) & set(dealer):
            raise _refuse(d, f"hands.{h} reads the dealer's hidden cards")
        on_board = sorted(c for c in hd.columns if c in board)
        n = len(on_board)
        if on_board != list(board[:n]) or n not in allowed:
            raise _refuse(d, f"hands.{h} reads {n} board cards that are not those of the "
                             "streets out by then")
        hand_level.append((h, n))
    if any(ln.dealer_hands for ln in d.lines):
        raise _refuse(d, "a rank line reads the dealer's hands (dealer_hands)")
    _check_river(d, tuple(level), dict(hand_level))
    thr = 0 if qual is None else int(threshold(qual, "poker"))
    return CommunityShape(tuple(level), tuple(hand_level), thr)


def _river_paths(d: Description, level: tuple[int, ...]) -> list[int]:
    """The paths a decision on the whole board chooses among."""
    nodes = _nodes(d)
    out: set[int] = set()

    def down(i: int) -> None:
        for kind, j in nodes[i].children:
            if kind == "path":
                out.add(j)
            else:
                down(j)

    for i, n in enumerate(nodes):
        if level[n.point] == 5:
            down(i)
    return sorted(out)


def _check_river(d: Description, level: tuple[int, ...], hand_level: dict[str, int]) -> None:
    """A river decision is taken per cell, where the classes of the hands on the hole cards
    and the flop are not known: what it changes may not depend on them. Every bet must settle
    alike under the river's paths, or differ between two of them in the same way whatever
    those classes are (checked on the layout's events and stake multiples: any pays)."""
    paths = _river_paths(d, level)
    if len(paths) < 2:
        return
    lay = layout(d)
    low = [h for h in lay.class_hands if hand_level[h] < 5]
    if not low:
        return
    n_cls = [len(lay.class_names[h]) for h in lay.class_hands]
    shape = (len(lay.paths), lay.n_showdown, *n_cls)
    low_axes = tuple(2 + lay.class_hands.index(h) for h in low)
    for b in d.bets:
        ev = lay.event_of[b.name].reshape(shape)
        mult = lay.multiple_of[b.name].reshape(shape)
        ref = np.stack([ev[paths[0]], mult[paths[0]]])
        for p in paths[1:]:
            both = np.stack([ev[p], mult[p]])
            pair = np.concatenate([ref, both])  # (4, showdown, classes...)
            changes = (both != ref).any(axis=0)
            axes = tuple(a - 1 for a in low_axes)
            varies = (pair != pair.take([0], axis=axes[0] + 1)).any(axis=0)
            for a in axes[1:]:
                varies |= (pair != pair.take([0], axis=a + 1)).any(axis=0)
            if (changes & varies).any():
                raise _refuse(d, f"a river decision changes bets.{b.name}, paid on hands "
                                 f"of the hole cards or the flop ({', '.join(low)})")


# --- the solve's program: what every stage needs, built once, picklable -------------------


@dataclass(frozen=True)
class Program:
    """The arrays of one solve (sent to the worker processes).

    ``high``: the class hands that read the whole board (stage 1), ``low``: the others (per
    flop and hole); each index is a mixed radix over its hands' classes, ``*_code`` its part
    of the layout's class code. ``river``: the nodes that see the whole board; a cell's code
    ``rc = ((signature * n_high) + high) * 2 + qualifies`` (signature: the river nodes'
    actions, mixed radix). ``term_path[t, sig]``: the path a terminal (a path, or a river
    node) ends in under a river signature. ``nets[t]``: (n_low, n_rc * 6) float64 net of
    terminal t per (low class, cell code, showdown result), ``nets_main`` the main bets'.
    The decisions weigh ``nets`` (``river_nets`` on the river): every offered bet's nets, or
    the main bets' alone for a strategy ``optimal_for = "main"``.
    """

    d: Description
    strategy: str
    total_dealer: int
    high: tuple[str, ...]
    low: tuple[str, ...]
    high_code: np.ndarray
    low_code: np.ndarray
    river: tuple[int, ...]
    river_radix: tuple[int, ...]
    n_sig: int
    n_high: int
    n_low: int
    n_rc: int
    terms: tuple[tuple[str, int], ...]
    term_path: np.ndarray
    nets: np.ndarray
    nets_main: np.ndarray
    river_nets: np.ndarray  # (n_paths, 6, n_high) int64: a path's net on the river, per class
    qualifier: int
    # (terms, n_low, n_rc * 6) int64: the net of the side bets no decision changes (settled
    # on every round, folds included, whatever the dealer holds)
    nets_free: np.ndarray | None = None

    @cached_property
    def nodes(self) -> tuple:
        """The description's decision nodes (:func:`gpusim.games.described.layout.nodes`),
        looked up once: a lookup hashes the whole description, and the stages ask per turn."""
        return tuple(_nodes(self.d))

    @cached_property
    def n_paths(self) -> int:
        return len(layout(self.d).paths)

    @property
    def exact(self) -> bool:
        """Whether the solve takes the best actions (``optimal`` or an ``optimal_for``
        strategy), not a rule strategy's."""
        return self.d.decides_for(self.strategy) is not None


def _radix(d: Description, hands: tuple[str, ...]) -> tuple[np.ndarray, int]:
    """(code part per mixed-radix index, count) of a group of class hands."""
    lay = layout(d)
    sizes = [len(lay.class_names[h]) for h in lay.class_hands]
    stride = {h: int(np.prod(sizes[i + 1:], dtype=np.int64)) for i, h in
              enumerate(lay.class_hands)}
    n = int(np.prod([len(lay.class_names[h]) for h in hands], dtype=np.int64))
    code = np.zeros(n, np.int64)
    rest = np.arange(n)
    for h in reversed(hands):
        k = len(lay.class_names[h])
        code += (rest % k) * stride[h]
        rest //= k
    return code, n


def program(rules, strategy: str, total_dealer: int) -> Program:
    d = rules.game_def
    shape = community_shape(d)
    lay = layout(d)
    nodes = _nodes(d)
    level = dict(shape.hand_level)
    high = tuple(h for h in lay.class_hands if level[h] == 5)
    low = tuple(h for h in lay.class_hands if level[h] < 5)
    high_code, n_high = _radix(d, high)
    low_code, n_low = _radix(d, low)
    river = tuple(i for i, n in enumerate(nodes) if shape.level[n.point] == 5)
    radix = tuple(len(nodes[i].children) for i in river)
    n_sig = int(np.prod(radix, dtype=np.int64))
    n_rc = n_sig * n_high * 2
    if n_rc > 256:  # a cell's code is one byte (the compiled binned sums read uint8)
        raise _refuse(d, f"{n_rc} river outcomes (decisions x classes x qualifying) are more "
                         "than 256")
    # terminals: every path, then every river node
    terms = tuple([("path", j) for j in range(len(lay.paths))] + [("node", i) for i in river])
    term_path = np.zeros((len(terms), n_sig), np.int64)
    sig_digits = np.zeros((n_sig, len(river)), np.int64)
    rest = np.arange(n_sig)
    for k in range(len(river) - 1, -1, -1):
        sig_digits[:, k] = rest % radix[k]
        rest //= radix[k]
    for t, (kind, j) in enumerate(terms):
        for s in range(n_sig):
            while kind == "node":
                a = sig_digits[s, river.index(j)]
                kind, j = nodes[j].children[a]
            term_path[t, s] = j
            kind, j = terms[t]
    from gpusim.games.described.solver import _nets

    scale, net, per_bet = _nets(rules)
    net_main = sum((v for b, v in per_bet.items() if not d.bet(b).side), np.zeros_like(net))
    if d.decides_for(strategy) == "main":
        net = net_main  # what the decisions weigh: the side bets are counted, not weighed
    net_free = sum((v for b, v in per_bet.items() if b in free_side_bets(d)), np.zeros_like(net))
    n_cls = net.shape[1] // (N_SD if d.showdown else 1)
    # a river decision is taken per cell, before the low classes are known: it may not depend
    # on them
    rnet = net.reshape(len(lay.paths), N_SD, n_cls)
    river_paths = np.unique(term_path[len(lay.paths):]) if river else np.zeros(0, np.int64)
    for p in river_paths[1:]:  # community_shape checked it on the events: for these pays too
        diff = (rnet[p] - rnet[river_paths[0]])[:, low_code[:, None] + high_code[None, :]]
        assert (diff == diff[:, :1]).all(), "a river decision depends on a low class"
    river_nets = rnet[:, :, high_code]  # low class 0: the decisions compare differences
    qual_bit = np.arange(n_rc) % 2
    hi = (np.arange(n_rc) // 2) % n_high
    sig = np.arange(n_rc) // (2 * n_high)

    def net_table(nt: np.ndarray) -> np.ndarray:
        t3 = nt.reshape(len(lay.paths), N_SD, n_cls)
        out = np.zeros((len(terms), n_low, n_rc, N_SD), np.float64)
        for t in range(len(terms)):
            path = term_path[t, sig]  # (n_rc,)
            for lo in range(n_low):
                cls = low_code[lo] + high_code[hi]
                out[t, lo] = t3[path[:, None], np.arange(N_SD)[None, :], cls[:, None]]
        # a cell where the player qualifies has no unqualified tie or loss, and the other way
        # round (the fields of unpack): those entries never meet a count
        out[:, :, qual_bit == 1, 1:3] = 0
        out[:, :, qual_bit == 0, 3:5] = 0
        return out.reshape(len(terms), n_low, n_rc * N_SD)

    nets, nets_main = net_table(net), net_table(net_main)
    nets_free = np.rint(net_table(net_free)).astype(np.int64)
    # a value is a float64 product of counts and nets: exact while below 2**53 (a flop's
    # deals of one hole: at most 47 x 46 boards x 990 dealer hands)
    if max(np.abs(nets).max(), np.abs(nets_main).max()) * 47 * 46 * 990 >= 2**53:
        raise ValueError(f"pays: a net of {np.abs(nets).max() / scale:.0f} x the Ante is not "
                         "allowed in an exact solve of a community game; it must stay below "
                         f"{2**53 // (47 * 46 * 990 * scale)}")
    return Program(d=d, strategy=strategy, total_dealer=total_dealer, high=high, low=low,
                    high_code=high_code, low_code=low_code, river=river, river_radix=radix,
                    n_sig=n_sig, n_high=n_high, n_low=n_low, n_rc=n_rc, terms=terms,
                    term_path=term_path, nets=nets, nets_main=nets_main,
                    river_nets=river_nets, qualifier=shape.qualifier, nets_free=nets_free)


def free_side_bets(d: Description) -> tuple[str, ...]:
    """The side bets no decision changes: settled after a fold too, with no condition on the
    showdown or on staying in."""
    return tuple(b.name for b in d.bets if b.side and b.fold == "settle" and b.requires is None
                 and b.bonus_requires is None)


@cache
def point_rule(d: Description, strategy: str, point: int):
    """A rule strategy's compiled decision at one point: ``fn(cards (N, C)) -> (N,) action``
    (the point's function sees its own columns only), built once per process."""
    import jax

    p = tree(d)[point]
    from gpusim.games.described.engine import rule_strategy

    fn = jax.jit(rule_strategy(d, strategy).fns[p.name])
    cols = list(p.sees)
    return lambda cards: np.asarray(fn(np.ascontiguousarray(cards[:, cols], np.int32))
                                    ).astype(np.int64)


def fill_unseen(seen: np.ndarray, m: int) -> np.ndarray:
    """(N, m) the m lowest cards that no row of ``seen`` (N, k) holds."""
    used = np.zeros((len(seen), 52), bool)
    used[np.arange(len(seen))[:, None], seen] = True
    order = np.argsort(used, axis=1, kind="stable")  # unused cards first, ascending
    return order[:, :m].astype(np.int32)


def check_strategy(d: Description, strategy: str) -> None:
    if d.decides_for(strategy) is None:
        names = [name for name, _, _ in d.strategies]
        if strategy not in names:
            exact = "".join(f", '{n}'" for n, _, _ in d.exact_strategies)
            raise StrategyError(f"strategy {strategy!r}: the exact solver of {d.name} prices "
                                f"'optimal'{exact} and the description's rule strategies: "
                                f"{', '.join(names)}")
