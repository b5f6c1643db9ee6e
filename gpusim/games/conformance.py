"""The conformance check every game passes, described or plugin:
:func:`check_game` (``gpusim games --check NAME``).

It deals rounds, lets each of the game's strategies decide and settles them, and checks what
the layers above rely on, driven by the spec's capabilities (never by the game's name):

- every offered bet has a stake, a net and an event per round, the events are rows of its
  return table, and each net is the stake times the event's return less one, in whole money
  units (a bet not placed has stake and net 0);
- the joint outcome code (``spec.joint``) lies in its range and decodes to the same events,
  stakes and actions taken;
- each decision reads only the cards its point sees: shuffling the other cards among their own
  columns changes no action;
- the ``gpusim play`` records carry the keys the capabilities promise: ``dealer`` and
  ``dealer_category`` only with a dealer, ``board`` only with community cards, ``face_up``
  only with face-up dealer cards, categories of the game's own ranking.
"""

from __future__ import annotations

import numpy as np

from gpusim.games.game_registry import spec_for
from gpusim.games.spec import load
from gpusim.rules import return_numerators
from gpusim.strategy.tree import taken

__all__ = ["check_game"]


def check_game(*configs, rounds: int = 1024, seed: int = 7) -> list[str]:
    """Problems of a game, one line each, over the given configs (rules from
    :func:`gpusim.config.load_config`; ``gpusim games --check NAME`` passes every shipped config
    of the game); empty when it conforms."""
    from gpusim.dealing import deal
    from gpusim.games.strategy_registry import get_strategy, strategy_names
    from gpusim.strategy import StrategyError

    problems: list[str] = []
    for rules in configs:
        spec = spec_for(rules)
        cards = np.asarray(deal(seed, 0, rounds, spec.cards_per_round))
        for name in strategy_names(spec.name):
            try:
                strategy = get_strategy(name, rules)
            except StrategyError as exc:  # e.g. optimal tables a plugin game does not have
                entry = spec.strategy(name)
                if entry is not None and entry.table is None:
                    problems.append(f"{rules.name}/{name}: {exc}")
                continue
            where = f"{rules.name}/{name}"
            problems += [f"{where}: {p}" for p in _check_rounds(spec, rules, strategy, cards)]
            problems += [f"{where}: {p}" for p in _check_information(spec, strategy, cards)]
        problems += [f"{rules.name}: {p}" for p in _check_records(spec, rules)]
    return problems


def _check_rounds(spec, rules, strategy, cards: np.ndarray) -> list[str]:
    from gpusim.games import bets, event_names, event_returns, settle

    out = []
    decisions = {k: np.asarray(v).astype(np.int32) for k, v in strategy.decide(cards).items()}
    s = settle(cards, decisions, rules)
    offered = bets(rules)
    if tuple(s.stakes) != offered:
        out.append(f"settles bets {list(s.stakes)}; the config offers {list(offered)}")
        return out
    names, returns = event_names(rules), event_returns(rules)
    for bet in offered:
        stake, net, ev = (np.asarray(x).astype(np.int64)
                          for x in (s.stakes[bet], s.nets[bet], s.events[bet]))
        if not (stake.shape == net.shape == ev.shape == (len(cards),)):
            out.append(f"{bet}: arrays of shapes {stake.shape}, {net.shape}, {ev.shape}")
            continue
        if ev.min() < 0 or ev.max() >= len(names[bet]):
            out.append(f"{bet}: event index {int(ev.max())} outside its {len(names[bet])} events")
            continue
        num, scale = return_numerators(returns[bet])
        known = np.array([r is not None for r in returns[bet]])[ev]
        want = stake * (num[ev] - scale)
        bad = known & (net * scale != want)
        if bad.any():
            i = int(np.argmax(bad))
            out.append(f"{bet}: round {i} nets {int(net[i])}, but stake {int(stake[i])} on "
                       f"event {names[bet][ev[i]]!r} returns {returns[bet][ev[i]]} per unit")
        if ((stake == 0) & (net != 0)).any() or (stake < 0).any():
            out.append(f"{bet}: a bet not placed has a net, or a stake is negative")
    out += _check_joint(spec, rules, s, decisions, offered)
    return out


def _check_joint(spec, rules, s, decisions, offered) -> list[str]:
    code = np.asarray(load(spec.joint.encoder)(s, offered)).astype(np.int64)
    n_bins, events, stakes, actions = spec.joint.decode(rules)
    if code.min() < 0 or code.max() >= n_bins:
        return [f"joint code {int(code.max())} outside its {n_bins} codes"]
    out = []
    for bet in offered:
        st = np.asarray(s.stakes[bet]).astype(np.int64)
        if not np.array_equal(stakes[bet][code], st):
            out.append(f"joint code: {bet}'s stakes do not decode")
        placed = st > 0
        if not np.array_equal(events[bet][code][placed],
                              np.asarray(s.events[bet]).astype(np.int64)[placed]):
            out.append(f"joint code: {bet}'s events do not decode")
    took = taken(spec.decisions, decisions)
    for point, a in actions.items():
        if not np.array_equal(a[code], np.asarray(took[point]).astype(np.int64)):
            out.append(f"joint code: point {point}'s actions do not decode")
    return out


def _check_information(spec, strategy, cards: np.ndarray) -> list[str]:
    """Shuffle, in each round, the cards a point does not see among their own columns: the
    point's answers must not move."""
    out = []
    rng = np.random.default_rng(0)
    before = strategy.decide(cards)
    for p in spec.decisions:
        hidden = [c for c in range(cards.shape[1]) if c not in p.sees]
        if len(hidden) < 2:
            continue
        moved = cards.copy()
        for i in range(len(moved)):
            moved[i, hidden] = moved[i, rng.permutation(hidden)]
        after = strategy.decide(moved)
        if not np.array_equal(np.asarray(before[p.name]), np.asarray(after[p.name])):
            out.append(f"point {p.name!r} reads cards it does not see")
    return out


def _check_records(spec, rules) -> list[str]:
    from gpusim.games.play import play_records
    from gpusim.games.strategy_registry import get_strategy

    # a rule strategy: a table strategy's tables may not be solved yet
    strategy = get_strategy(next((s.name for s in spec.strategies if s.table is None),
                                 "basic"), rules)
    out = []
    for rec in play_records(rules, strategy, seed=3, first_round=0, n_rounds=8):
        keys = set(rec)
        want = {"format", "round", "decisions", "player_category", "bets", "net",
                *spec.card_layout}
        if spec.dealer:
            want.add("dealer_category")
        if spec.face_up:
            want.add("face_up")
        if keys != want:
            out.append(f"play record keys {sorted(keys)}; the capabilities promise "
                       f"{sorted(want)}")
            break
        cats = {rec["player_category"], rec.get("dealer_category", rec["player_category"])}
        if not cats <= set(spec.category_names):
            out.append(f"play record categories {sorted(cats)} are not the game's "
                       f"({', '.join(spec.category_names)})")
            break
    return out
