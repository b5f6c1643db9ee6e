"""The exact solver of described games as an :class:`~gpusim.exact.solver.ExactSolver`: solves
cached on disk, decision tables, and the exact report (docs/exact.md).

A solve (:func:`gpusim.games.described.solver.solve`) is cached per config hash and strategy
in the user's cache directory, so a second ``gpusim exact`` answers in a second. The report is
built from the joint-code counts alone: every bet's events and their integer counts, the main
game's outcomes, the share of each action, and, for the first decision point, each starting
hand's EV per action.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from gpusim.cards import RANKS
from gpusim.exact.cache import FORMAT, atomic_savez, cache_dir, progress_bar
from gpusim.exact.report import (
    BetTable,
    MainOutcomes,
    bet_json,
    main_json,
    max_win_json,
    round_max_json,
)
from gpusim.exact.solver import ExactSolver
from gpusim.games.described.layout import event_returns, layout, tree

__all__ = ["SOLVER", "cached_solve", "first_decision", "report", "starting_label"]


def _cache_path(rules, strategy: str):
    return cache_dir() / f"described_{rules.config_hash[:16]}_{strategy}_v{FORMAT}.npz"


def cached_solve(rules, strategy: str = "optimal", *, progress: bool = True):
    """The solve of ``rules`` under ``strategy``, from the cache or counted now (and cached)."""
    from gpusim.games.described.solver import Solved, solve

    path = _cache_path(rules, strategy)
    if path.is_file():
        with np.load(path) as z:
            tables = {k.removeprefix("table:").replace("__", "/"): z[k] for k in z.files
                      if k.startswith("table:")}
            return Solved(rules=rules, strategy=strategy, joint=z["joint"],
                          deals=int(z["joint"].sum()), scale=int(z["scale"]),
                          root_cards=z["root_cards"], root_weight=z["root_weight"],
                          root_deals=z["root_deals"], root_ev=z["root_ev"],
                          root_ev_main=z["root_ev_main"], root_action=z["root_action"],
                          tables=tables or None,
                          root_ev_free=z["root_ev_free"] if "root_ev_free" in z.files else None)
    community = _is_community(rules.game_def)
    unit = "flop classes" if community else "player classes"
    update, stop = (progress_bar(f"{rules.game_def.title}: {unit}") if progress
                    else (None, None))
    try:
        if community:
            from gpusim.games.described.community import solve as solve_community

            res = solve_community(rules, strategy, progress=update)
        else:
            res = solve(rules, strategy, progress=update)
    finally:
        if stop:
            stop()
    extra = {f"table:{k.replace('/', '__')}": v for k, v in (res.tables or {}).items()}
    atomic_savez(path, level=1, joint=res.joint, scale=np.int64(res.scale),
                 root_cards=res.root_cards, root_weight=res.root_weight,
                 root_deals=res.root_deals, root_ev=res.root_ev,
                 root_ev_main=res.root_ev_main, root_action=res.root_action,
                 **({} if res.root_ev_free is None else {"root_ev_free": res.root_ev_free}),
                 **extra)
    return res


def _is_community(d) -> bool:
    """Whether a description is counted by the community-card solver (the described solver
    refuses its board, :func:`gpusim.games.described.community.community_shape` takes it)."""
    from gpusim.games.described.community import community_shape
    from gpusim.games.described.layout import shape_of

    try:
        shape_of(d)
        return False
    except ValueError:
        community_shape(d)  # the caller asked for a solve: a refusal here is the answer
        return True


def counts_file(rules) -> str:
    return _cache_path(rules, "optimal").name


def solve_tables(rules, progress: bool, backend: str = "cpu") -> dict[str, np.ndarray]:
    """The decision tables (bool bit planes per point) of ``optimal`` and of the description's
    other exact strategies (``optimal_for``), each a solve of its own."""
    del backend  # counted on the CPU: the described solver has no GPU path
    out: dict[str, np.ndarray] = {}
    for name in ("optimal", *(n for n, _, _ in rules.game_def.exact_strategies)):
        tables = cached_solve(rules, name, progress=progress).tables
        assert tables is not None
        out.update(tables)
    return out


# --- starting hands ---------------------------------------------------------------------------

_CATEGORY_LABELS = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
                    "full house", "four of a kind", "straight flush", "royal flush")


def starting_label(cards: np.ndarray) -> np.ndarray:
    """A readable class of each row's player cards (N, n): up to three cards, their ranks high
    to low with ``s`` when all share a suit (``AKs``, ``Q64``, ``QQ4``); four cards, what they
    make and what they draw to (``pair of 9s``, ``four to a flush``, ``four to an inside
    straight``, ``high card A-K``); five to seven, the best poker hand (``pair of 9s``,
    ``high card A-K``, ``flush``)."""
    cards = np.asarray(cards, np.int64)
    n = cards.shape[1]
    ranks = -np.sort(-(cards >> 2), axis=1)
    if n <= 3:
        suited = (n >= 2) & ((cards & 3) == (cards[:, :1] & 3)).all(axis=1)
        text = ["".join(RANKS[r] for r in row) for row in ranks.tolist()]
        return np.array([t + ("s" if s and len(set(t)) == n else "") for t, s in
                         zip(text, suited.tolist(), strict=True)])
    code = _four_card_code(cards, ranks) if n == 4 else _poker_code(cards, ranks)
    # one small code per label (category, then the ranks that name it), texts made once each
    uniq, inv = np.unique(code, return_inverse=True)
    texts = np.array([_label_text(int(c)) for c in uniq.tolist()])
    return texts[inv.reshape(-1)]


# label codes: 0..168 high card by its top two ranks, 169..181 a pair by its rank, then the
# categories from two pair up (182 + category), then the four-card draws
_PAIR, _CATEGORY = 169, 182
_DRAWS = ("four to a straight flush", "four to a flush", "four to an outside straight",
          "four to an inside straight")
_DRAW = _CATEGORY + len(_CATEGORY_LABELS)


def _poker_code(cards: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    from gpusim.evaluator import evaluate_np

    rank = evaluate_np(np.ascontiguousarray(cards, np.int32), check=False).astype(np.int64)
    cat = rank >> 27
    primary = (rank >> 13) & 0x1FFF
    cat = np.where((cat == 8) & (primary == (1 << 12)), 9, cat)
    pair_rank = np.floor(np.log2(np.maximum(primary, 1))).astype(np.int64)
    return np.where(cat == 0, ranks[:, 0] * 13 + ranks[:, 1],
                    np.where(cat == 1, _PAIR + pair_rank, _CATEGORY + cat))


def _four_card_code(cards: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """Four cards (N, 4): the rank groups they make, else the best five-card draw they hold."""
    counts = np.zeros((len(cards), 13), np.int64)
    np.add.at(counts, (np.arange(len(cards))[:, None], cards >> 2), 1)
    most = counts.max(axis=1)
    pairs = (counts == 2).sum(axis=1)
    pair_rank = np.argmax(counts == 2, axis=1)
    suited = ((cards & 3) == (cards[:, :1] & 3)).all(axis=1)
    # four distinct ranks within a window of five make a straight draw; the ace plays low too
    low = np.where(ranks[:, 0] == 12, ranks[:, 1], ranks[:, 0])
    wheel = (ranks[:, 0] == 12) & (ranks[:, 1] <= 3)
    span_ok = (ranks[:, 0] - ranks[:, 3] <= 4) | (wheel & (low <= 3))
    straight = (most == 1) & span_ok
    # four in a row with room at both ends (not A-K-Q-J, not A-2-3-4)
    outside = straight & (ranks[:, 0] - ranks[:, 3] == 3) & (ranks[:, 0] < 12)
    draw = np.where(straight & suited, 0, np.where(suited, 1, np.where(outside, 2, 3)))
    made = np.select([most == 4, most == 3, pairs == 2, pairs == 1],
                     [_CATEGORY + 7, _CATEGORY + 3, _CATEGORY + 2, _PAIR + pair_rank],
                     ranks[:, 0] * 13 + ranks[:, 1])
    return np.where((most == 1) & (straight | suited), _DRAW + draw, made)


def _label_text(code: int) -> str:
    if code < _PAIR:
        return f"high card {RANKS[code // 13]}-{RANKS[code % 13]}"
    if code < _CATEGORY:
        return f"pair of {RANKS[code - _PAIR]}s"
    if code < _DRAW:
        return _CATEGORY_LABELS[code - _CATEGORY]
    return _DRAWS[code - _DRAW]


def first_decision(res, root_ev: np.ndarray | None = None) -> list[dict]:
    """For the first decision point, per starting hand (and dealer up card): the deals, the
    main game's EV of every action per unit of the base bet (side bets left out: a strategy
    card reads the main game; ``root_ev``, per root row and action, in its place), and the
    share of the hand's deals where the strategy takes each action."""
    d = res.rules.game_def
    point = tree(d)[0]
    unit = res.rules.stakes.as_dict()[d.base_bet] * res.scale
    labels = starting_label(res.root_cards[:, : d.player])
    lab_u, lab_i = np.unique(labels, return_inverse=True)
    up_rank = (res.root_cards[:, d.player].astype(np.int64) >> 2) if d.dealer_up else \
        np.zeros(len(labels), np.int64)
    group = lab_i.reshape(-1) * 13 + up_rank
    w = res.root_weight.astype(np.int64)
    deals = res.root_deals.astype(np.int64) * w
    # exact int64 sums per group: rows sorted by group, summed by reduceat
    order = np.argsort(group, kind="stable")
    g_sorted = group[order]
    starts = np.flatnonzero(np.r_[True, g_sorted[1:] != g_sorted[:-1]])

    def sums(values: np.ndarray) -> list:
        return np.add.reduceat(values[order], starts, axis=0).tolist()

    n_deals = sums(deals)
    ev = sums((res.root_ev_main if root_ev is None else root_ev).astype(np.int64) * w[:, None])
    taken = sums(deals[:, None] * (res.root_action[:, None] == np.arange(len(point.actions))))
    out = []
    for k, g in enumerate(g_sorted[starts].tolist()):
        n = n_deals[k]
        row: dict = {"hand": str(lab_u[g // 13])}
        if d.dealer_up:
            row["up"] = RANKS[g % 13]
        row["deals"] = n
        row["ev"] = {a.name: float(Fraction(ev[k][i], n * unit))
                     for i, a in enumerate(point.actions)}
        row["share"] = {a.name: float(Fraction(taken[k][i], n))
                        for i, a in enumerate(point.actions)}
        out.append(row)
    rank_of = {lab: i for i, lab in enumerate(_label_order(out))}
    return sorted(out, key=lambda r: (rank_of[r["hand"]], RANKS.index(r["up"]) if r.get("up")
                                      else 0))


def _label_order(rows: list[dict]) -> list[str]:
    """Starting hands strongest first, by the best EV the hand has."""
    best: dict[str, float] = {}
    for r in rows:
        best[r["hand"]] = max(best.get(r["hand"], -1e300), max(r["ev"].values()))
    return sorted(best, key=lambda h: (-best[h], h))


# --- the report -------------------------------------------------------------------------------


def report(rules, strategy: str, *, progress: bool = True, backend: str = "cpu") -> dict:
    """The exact report of a described game's config under ``strategy`` (docs/exact.md; another
    name of a table strategy is solved as that strategy, and reported under its own name)."""
    from dataclasses import replace

    del backend
    table = {n: t for n, _, t in rules.game_def.table_names}.get(strategy, strategy)
    res = cached_solve(rules, table, progress=progress)
    return analyse(replace(res, strategy=strategy))


def analyse(res) -> dict:
    """The report's JSON of a solve: ``main`` (per unit of the base bet), ``bets`` (each event
    with its integer count, each bet's largest net win), the round's largest net win over every
    offered bet (``max_win``: each deal's joint code settles them all), ``decisions`` (action
    shares) and ``first_decision``."""
    rules = res.rules
    d = rules.game_def
    lay = layout(d)
    joint = res.joint.astype(np.int64)
    total = int(joint.sum())
    amounts = rules.stakes.as_dict()
    offered = [b.name for b in d.bets if not b.side or amounts.get(b.name, 0) > 0]
    rets = event_returns(d, rules.pays())
    bets = {}
    main_net = np.zeros(lay.n_codes, object)
    main_wager = np.zeros(lay.n_codes, np.int64)
    round_net = np.zeros(lay.n_codes, object)  # every offered bet's net, in base-bet units
    dealt = joint > 0
    for b in offered:
        mult = lay.multiple_of[b]
        # the events as the report lists them: report_folds = "merged" counts each
        # fold:<event> with its event (paid alike: the bet is settled after a fold)
        shown = _shown_events(lay.events[b], d.word("fold"), d.bet(b).report_folds_merged)
        ev = shown[lay.event_of[b]]
        table = BetTable(placed=int(joint[mult > 0].sum()),
                         staked=int((joint * mult).sum()))
        for e in _event_order(lay.events[b], d.bet(b).report_order):
            if shown[e] != e:
                continue
            name = lay.events[b][e]
            sel = ev == e
            count = int(joint[sel].sum())
            if not count and name == "not_placed":
                continue
            units = int((joint[sel] * mult[sel]).sum())
            # an event of a bet not on the table (a fold, a pulled bet) pays nothing
            pays = Fraction(rets[b][e]) - 1 if mult[sel].any() else Fraction(0)
            table.add(name, pays, count, units=units, placed=int(joint[sel & (mult > 0)].sum()))
        # the bet's net per code in base-bet units: a side bet's stake is its own amount
        value = np.array([Fraction(r) - 1 for r in rets[b]], object)
        per_unit = Fraction(amounts[b], amounts[d.base_bet]) if d.bet(b).side else 1
        net = mult * value[ev] * per_unit
        round_net = round_net + net
        on = np.nonzero(dealt & (mult > 0))[0]
        best = max_win_json([(lay.events[b][ev[c]], net[c], int(joint[c])) for c in on], total)
        bets[b] = bet_json(table, total, max_win=best)
        if d.bet(b).report_always_settled:
            bets[f"{b}_always_settled"] = _always_settled(lay, d.bet(b), d.word("fold"), joint,
                                                          rets[b], per_unit, total)
        if not d.bet(b).side:
            main_net = main_net + mult * value[ev]
            main_wager += mult
    scale = 1
    for v in main_net:
        scale = math.lcm(scale, Fraction(v).denominator)
    outcomes = MainOutcomes(unit=scale)
    net_int = np.array([int(Fraction(v) * scale) for v in main_net], np.int64)
    for code in np.nonzero(joint)[0].tolist():
        outcomes.add(int(net_int[code]), int(main_wager[code]) * scale, int(joint[code]))
    main = main_json(outcomes)
    main["hit_frequency"] = float(Fraction(int(joint[net_int > 0].sum()), total))
    decisions = {}
    for p in tree(d):
        took = lay.action_of[p.name]
        reached = int(joint[took >= 0].sum())
        decisions[p.name] = {a.name: int(joint[took == i].sum()) / total
                             for i, a in reversed(list(enumerate(p.actions)))}
        decisions[p.name]["reached"] = reached / total
    hands = first_decision(res)
    out = {
        "game": d.name,
        "config": rules.name,
        "strategy": res.strategy,
        "deals_counted": total,
        "main": main,
        "bets": bets,
        "max_win": round_max_json([(round_net[c], int(joint[c]))
                                   for c in np.nonzero(dealt)[0]], total, bets=offered),
        "decisions": decisions,
    }
    if d.hand_table is not None:
        out[d.hand_table] = hand_table(d, first_decision(res, _decided_ev(res)))
    if d.first_decision_order == "chart":
        hands = _chart_order(hands)
    out["first_decision"] = {"point": tree(d)[0].name, "hands": hands}
    if d.first_decision_note:
        out["first_decision"]["note"] = d.first_decision_note
    return out


def _chart_order(hands: list[dict]) -> list[dict]:
    """First-decision rows of two-card hands in the 13 x 13 chart's order, offsuit hands named
    as hold'em names them (``AKo``)."""
    from gpusim.cards import HAND_CLASSES

    named = {}
    for row in hands:
        h = row["hand"]
        name = h + "o" if len(h) == 2 and h[0] != h[1] else h
        named[name] = {**row, "hand": name}
    return [named[h] for h in HAND_CLASSES if h in named]


def _shown_events(names: tuple[str, ...], fold: str, merged: bool) -> np.ndarray:
    """Per event of a bet, the event the report lists it under: itself, or with
    ``report_folds = "merged"`` a ``fold:<event>``'s event (``fold``: the game's word)."""
    index = {n: e for e, n in enumerate(names)}
    return np.array([index.get(n.removeprefix(f"{fold}:"), e) if merged else e
                     for e, n in enumerate(names)], np.int64)


def _always_settled(lay, bet, fold: str, joint: np.ndarray, rets, per_unit: Fraction | int,
                    total: int) -> dict:
    """A bet's figures as if a fold never forfeited it (``report_always_settled``): each
    ``fold:<event>`` counted with its event and paid as it, the bet placed on every deal."""
    names = lay.events[bet.name]
    ev = _shown_events(names, fold, True)[lay.event_of[bet.name]]
    table = BetTable(placed=total, staked=total)
    wins = []
    for e in _event_order(names, bet.report_order):
        name = names[e]
        if name.startswith(f"{fold}:") or (name == "not_placed" and not joint[ev == e].any()):
            continue
        sel = ev == e
        count = int(joint[sel].sum())
        pays = Fraction(rets[e]) - 1
        table.add(name, pays, count, units=count, placed=count)
        if count:
            wins.append((name, pays * per_unit, count))
    return bet_json(table, total, max_win=max_win_json(wins, total))


def _event_order(names: tuple[str, ...], order: tuple[str, ...]) -> list[int]:
    """The indices of a bet's events in the order its report lists them
    (:func:`gpusim.games.described.bets._report_order`). An entry that takes no event is
    passed over: which events a bet has can depend on the config's options (Ultimate Texas
    Hold'em's Trips names ``beat:`` events only where it must beat the dealer)."""
    if not order:
        return list(range(len(names)))
    rest = order.index("*") if "*" in order else len(order)
    slot = [next((i for i, x in enumerate(order) if x == name or (
        x.endswith(":*") and name.startswith(x[:-1]))), rest) for name in names]
    return sorted(range(len(names)), key=lambda e: (slot[e], e))


def _decided_ev(res) -> np.ndarray:
    """(rows, actions) the first decision's EV of the bets a decision can change: every
    offered bet but the side bets settled whatever happens (what the decision weighs)."""
    from gpusim.games.described.community_program import free_side_bets

    d = res.rules.game_def
    amounts = res.rules.stakes.as_dict()
    if res.root_ev_free is not None:
        return res.root_ev - res.root_ev_free[:, None]
    if any(amounts.get(b, 0) > 0 for b in free_side_bets(d)):
        raise ValueError(f"game.report.hand_table: the solver of {d.name} does not count the "
                         "EV of its side bets apart; leave the side bets out of the config "
                         "(stake 0) or the hand table out of the description")
    return res.root_ev


def hand_table(d, hands: list[dict]) -> dict:
    """The first decision by two-card starting hand (``[game.report] hand_table``): per hand
    in the 13 x 13 chart's order (``AA``, ``AKs`` .. ``AKo`` ..), named as hold'em names it,
    each action's EV per unit of the base bet (``ev_<action>``, in the point's order; the bets
    a decision can change: the main game and the side bets a fold or the showdown can lose)
    and the action the strategy takes on most of its deals."""
    actions = [a.name for a in tree(d)[0].actions]
    return {row["hand"]: {**{f"ev_{a}": row["ev"][a] for a in actions},
                          "action": max(actions, key=lambda a: row["share"][a])}
            for row in _chart_order(hands)}


def counts(rules, *, progress: bool = True, backend: str = "cpu"):
    del backend
    return cached_solve(rules, "optimal", progress=progress)


SOLVER = ExactSolver(
    counts=counts,
    counts_file=counts_file,
    solve_tables=solve_tables,
    report=report,
    rule_strategies_are_slow=True,
    report_solves_tables=True,
)
