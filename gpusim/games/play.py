"""Round-by-round records for ``gpusim play``: deal, decide, settle, describe.

One record per round (the JSON Lines format of ``gpusim play --json``, docs/play-jsonl.md)::

    {"format": "gpusim-play/2", "round": 7, "player": ["As", "Kd"], "dealer": ["7c", "7d"],
     "board": ["Qh", "Jh", "Tc", "2s", "9d"],          # the game's card_layout, by name
     "decisions": {"call": "call"},
     "player_category": "straight", "dealer_category": "pair",
     "bets": {"ante": {"stake": 1, "net": 1, "event": "win:straight"}, ...},
     "net": 3}

``decisions`` names the action taken at each decision point the round reached (a point after
a fold is absent). Seats follow the game's card layout: ``dealer`` is absent in a game without a
dealer, ``board`` in one without community cards; ``face_up`` lists the dealer's cards dealt face
up, where there are any. Categories are the game's ranking's (a 3-card game's ``flush`` ranks
below its ``straight``); ``dealer_category`` is absent without a dealer. A bet that was not
placed this round (the Call after a fold, a checked Turn, a side bet the config does not
offer) is absent from ``bets``. ``format`` is :data:`FORMAT`, the
records' version (docs/formats.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpusim.cards import format_card
from gpusim.games import settle, spec_for
from gpusim.strategy.tree import taken

__all__ = ["FORMAT", "play_records", "round_records"]

FORMAT = "gpusim-play/2"
"""The records' version, every record's first key: ``gpusim-play/1`` had booleans as decisions,
``gpusim-play/2`` names the action taken (docs/formats.md)."""


CHUNK = 512
"""Rounds per settle call; rows are padded to it so that every call has one shape (one jit
compilation per process however many rounds are shown)."""


def round_records(
    cards, rules, strategy, *, first_round: int = 0, jackpot_meter=None
) -> list[dict[str, Any]]:
    """Records of already-dealt rounds. cards: (N, C) int32, C the game's cards per round;
    round numbers count from ``first_round``."""
    c = np.asarray(cards, dtype=np.int32).reshape(-1, spec_for(rules).cards_per_round)
    out: list[dict[str, Any]] = []
    for lo in range(0, len(c), CHUNK):
        part = c[lo : lo + CHUNK]
        padded = np.concatenate([part, np.repeat(part[:1], CHUNK - len(part), axis=0)])
        out += _records(padded, len(part), rules, strategy, first_round + lo, jackpot_meter)
    return out


def _records(c, n, rules, strategy, first_round, jackpot_meter) -> list[dict[str, Any]]:
    spec = spec_for(rules)
    decisions = strategy.decide(c)
    dec = {k: np.asarray(decisions[k]).astype(np.int32) for k in spec.decision_points}
    took = taken(spec.decisions, dec)
    s = settle(c, dec, rules, jackpot_meter=jackpot_meter)
    stakes = {b: np.asarray(v) for b, v in s.stakes.items()}
    nets = {b: np.asarray(v) for b, v in s.nets.items()}
    events = {b: np.asarray(v) for b, v in s.events.items()}
    names = s.event_names
    cats = spec.category_names  # the ranking's categories: a 3-card game names its own
    pcat = np.asarray(s.player_category)
    dcat = np.asarray(s.dealer_category)
    out = []
    for i in range(n):
        bets = {
            b: {
                "stake": int(stakes[b][i]),
                "net": int(nets[b][i]),
                "event": names[b][int(events[b][i])],
            }
            for b in stakes
            if stakes[b][i] > 0
        }
        out.append(
            {
                "format": FORMAT,
                "round": first_round + i,
                **{group: [format_card(x) for x in c[i, list(cols)]]
                   for group, cols in spec.card_layout.items()},
                **({"face_up": [format_card(x) for x in c[i, list(spec.face_up)]]}
                   if spec.face_up else {}),
                "decisions": {p.name: p.actions[took[p.name][i]].name for p in spec.decisions
                              if took[p.name][i] >= 0},
                "player_category": cats[int(pcat[i])],
                **({"dealer_category": cats[int(dcat[i])]} if spec.dealer else {}),
                "bets": bets,
                "net": sum(v["net"] for v in bets.values()),
            }
        )
    return out


def play_records(
    rules, strategy, *, seed: int, first_round: int, n_rounds: int, jackpot_meter=None
) -> list[dict[str, Any]]:
    """Deal rounds ``first_round .. first_round + n_rounds - 1`` of ``seed`` and describe them."""
    from gpusim.dealing import MAX_ROUND, deal

    stop = first_round + n_rounds
    parts = []
    for lo in range(first_round, stop, CHUNK):
        # Deal whole chunks (one compiled shape) unless that would pass the last round index.
        k = CHUNK if lo + CHUNK <= MAX_ROUND else min(CHUNK, stop - lo)
        parts.append(np.asarray(deal(seed, lo, k, spec_for(rules).cards_per_round)))
    cards = np.concatenate(parts)[:n_rounds]
    return round_records(
        cards, rules, strategy, first_round=first_round, jackpot_meter=jackpot_meter
    )
