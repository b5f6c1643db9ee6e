"""The street-bets hold'em shape's side bets for ``gpusim design`` (numpy only: no JAX import,
so a side-bet search starts at once): the Bonus's hit counts (:func:`bonus_hits`) and the
Jackpot's fixed prizes (:func:`jackpot_model`) of a described game of the shape, and the
counts and model any game of the shape prices them with (:func:`hits_of`,
:class:`JackpotModel`)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from gpusim.cards import CATEGORY_KEYS, HAND_CLASSES, hand_class_index

__all__ = ["JackpotModel", "bonus_hits", "hits_of", "jackpot_model"]


def hits_of(line_classes: dict[str, tuple[str, ...]], vs_aces: str | None,
            lines: list[str]) -> tuple[dict[str, int], int]:
    """({line: deals it pays}, deals) over every (player hole, dealer hole) pair, C(52,2) x
    C(50,2) deals, counted from the starting-hand classes; ``line_classes``: the classes each
    line pays; ``vs_aces``: the line of AA against the dealer's AA (None: none), paid before
    the line of AA; ``lines``: those to give, in paytable order."""
    i, j = np.triu_indices(52, 1)
    combos = np.bincount(hand_class_index(i, j), minlength=len(HAND_CLASSES))
    per = 1225  # dealer hands per player hole
    hits = {ln: per * sum(int(combos[HAND_CLASSES.index(c)]) for c in cls)
            for ln, cls in line_classes.items()}
    if vs_aces is not None and vs_aces in lines:
        # 6 player AA; the dealer holds the other two aces in 1 of 1,225 hands
        aces = next(ln for ln, cls in line_classes.items() if "AA" in cls)
        hits[vs_aces] = 6
        hits[aces] -= 6
    return {ln: hits[ln] for ln in lines}, 1326 * per


def bonus_hits(rules, bet: str) -> tuple[dict[str, int], int]:
    """A described game's Bonus: :func:`hits_of` its lines."""
    from gpusim.games.holdem.streets_shape import prices_of

    p = prices_of(rules, merged=False)
    lines = list(rules.game_def.paytable(str(rules.game_def.bet(bet).paytable)).lines)
    vs = p.bonus_vs_aces[0] if p.bonus_vs_aces else None
    return hits_of({ln: cls for ln, _pay, cls in p.bonus_lines}, vs, lines)


class JackpotModel:
    """The Jackpot's fixed prizes ("X for 1": net X - 1) as a separable model for
    :func:`gpusim.designer.sidebet.search_side_bet`, strategy-free (its hand is the player's
    five or seven cards, settled after a fold too).

    The royal flush pays the progressive meter: priced, as the exact report's RTP is, at its
    long-run average prize per unit staked, ``R = reset / stake + contribution / P(royal)``
    (every contribution paid back). With ``n_l`` hands per line, ``n_r`` royal flushes out of
    ``total`` and ``q`` the denominator of ``R``, in units of ``1 / q``::

        s(X) = sum_l q n_l X_l + q n_r R - q total,      RTP = 1 + s / (q total).

    SD and VI take the royal flush at that average prize (the meter's own spread is the
    simulator's: ``gpusim simulate`` with the meter). ``p``: the config's
    :class:`gpusim.games.holdem.streets.StreetPrices`.
    """

    shown = ("rtp", "house_edge", "hit_frequency", "sd", "vi")
    strategy = None
    strategy_text = None
    note = ("the royal flush pays the meter: priced at its long-run average prize (reset / "
            "stake + contribution / P(royal flush)), as the exact report's Jackpot RTP; the "
            "fixed prizes are X for 1")

    def __init__(self, p, lines: tuple[str, ...]) -> None:
        from gpusim.games.holdem.streets import FIVE_CARD, SEVEN_CARD

        table = FIVE_CARD if p.jackpot_cards == "hole_and_flop" else SEVEN_CARD
        self.lines = lines
        self.total = sum(table.values())
        self.n = np.array([table[ln] for ln in lines], dtype=np.int64)
        self.n_r = table[CATEGORY_KEYS[-1]]
        self.royal = Fraction(p.jackpot_reset, p.jackpot_stake) + p.jackpot_contribution / \
            Fraction(self.n_r, self.total)
        self.q = self.royal.denominator
        self.no_win = self.total - int(self.n.sum()) - self.n_r
        self.den = self.q * self.total
        self.offset = int(self.q * self.n_r * self.royal) - self.q * self.total

    def gains(self, line: int, values: np.ndarray) -> np.ndarray:
        return self.q * int(self.n[line]) * np.asarray(values, dtype=np.int64)

    def _moments(self, pays: np.ndarray):
        """(sum of squared nets, winning hands) per paytable, floats."""
        net = np.asarray(pays, dtype=float) - 1
        r = float(self.royal) - 1
        s2 = (net * net) @ self.n + self.n_r * r * r + self.no_win
        won = (net > 0).astype(float) @ self.n + (self.n_r if r > 0 else 0)
        return s2, won

    def figures(self, pays: np.ndarray, s, z: float) -> dict[str, np.ndarray]:
        s2, won = self._moments(pays)
        mean = np.asarray(s, dtype=float) / self.den
        sd = np.sqrt(np.maximum(s2 / self.total - mean * mean, 0.0))
        return {"rtp": 1 + mean, "house_edge": -mean, "hit_frequency": won / self.total,
                "sd": sd, "vi": z * sd}


def jackpot_model(rules, bet: str) -> JackpotModel:
    """A described game's Jackpot for the designer (lines in paytable order)."""
    from gpusim.games.holdem.streets_shape import prices_of

    d = rules.game_def
    return JackpotModel(prices_of(rules), d.paytable(str(d.bet(bet).paytable)).lines)
