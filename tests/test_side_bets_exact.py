"""Side-bet returns by full enumeration through the settlement functions.

Every case is settled by ``gpusim.games.settle`` and the returns are summed as integers; the
figures are compared with the seeds (published to two decimals) and with the
textbook five-card hand counts. Run with ``-s`` to see the six-decimal figures.
"""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from gpusim.config import load_config
from gpusim.games import settle

# Five-card hand counts out of C(52, 5) = 2,598,960 (any probability text; pairs of aces are
# one thirteenth of the 1,098,240 one-pair hands).
FIVE_CARD_COUNTS = {
    "royal_flush": 4,
    "straight_flush": 36,
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "pair": 1098240,
    "high_card": 1302540,
}
N5 = 2_598_960


def _fill(used: np.ndarray, n_fill: int) -> np.ndarray:
    """The n_fill lowest card codes not in each row of ``used`` (N, k): filler cards."""
    cand = np.arange(used.shape[1] + n_fill, dtype=np.int32)
    taken = (cand[None, :, None] == used[:, None, :]).any(axis=2)
    order = np.argsort(taken, axis=1, kind="stable")[:, :n_fill]
    return cand[order]


def _returns(s, bet) -> int:
    return int(np.asarray(s.stakes[bet], np.int64).sum() + np.asarray(s.nets[bet], np.int64).sum())


def _staked(s, bet) -> int:
    return int(np.asarray(s.stakes[bet], np.int64).sum())


def _thb_bonus_rtp(config: str) -> tuple[Fraction, dict[str, int]]:
    """Every player hole pair x every dealer hole pair (1326 x 1225 rounds), settled 102 player
    pairs (124,950 rounds) at a time."""
    rules = load_config(config)
    pairs = np.asarray(list(itertools.combinations(range(52), 2)), dtype=np.int32)
    di, dj = np.triu_indices(50, 1)  # the dealer's pairs of the 50 cards the player left
    returned = staked = 0
    events: dict[str, int] = {}
    for lo in range(0, len(pairs), 102):
        blocks = []
        for p in pairs[lo : lo + 102]:
            rest = np.setdiff1d(np.arange(52, dtype=np.int32), p)
            blocks.append(np.stack([np.full(len(di), p[0]), np.full(len(di), p[1]),
                                    rest[di], rest[dj]], axis=1))
        used = np.concatenate(blocks).astype(np.int32)
        cards = np.concatenate([used, _fill(used, 5)], axis=1)
        # Fold preflop: the Bonus is settled whatever happens in the main game.
        dec = {k: np.zeros(len(cards), bool) for k in ("flop", "turn", "river")}
        s = settle(cards, dec, rules)
        returned += _returns(s, "bonus")
        staked += _staked(s, "bonus")
        names = s.event_names["bonus"]
        for e, n in zip(*np.unique(np.asarray(s.events["bonus"]), return_counts=True), strict=True):
            events[names[e]] = events.get(names[e], 0) + int(n)
    assert sum(events.values()) == 1326 * 1225
    return Fraction(returned, staked), events


@pytest.fixture(scope="module")
def all_five_card_rounds() -> np.ndarray:
    """(2,598,960, 9) rounds whose hole cards + flop run over every five-card hand."""
    five = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
        dtype=np.int32,
        count=5 * N5,
    ).reshape(N5, 5)
    fill = _fill(five, 4)
    # [hole 0:2, dealer 2:4, flop 4:7, turn, river]
    return np.concatenate([five[:, :2], fill[:, :2], five[:, 2:5], fill[:, 2:4]], axis=1)


def _settle_chunks(cards, rules, decisions_fn, bet):
    returned = staked = 0
    counts: dict[str, int] = {}
    for lo in range(0, len(cards), 650_000):
        c = cards[lo : lo + 650_000]
        s = settle(c, decisions_fn(len(c)), rules)
        returned += _returns(s, bet)
        staked += _staked(s, bet)
        names = s.event_names[bet]
        for e, n in zip(*np.unique(np.asarray(s.events[bet]), return_counts=True), strict=True):
            counts[names[e]] = counts.get(names[e], 0) + int(n)
    return Fraction(returned, staked), counts


def _ch_call(n):
    return {"call": np.ones(n, bool)}


def test_thb_bonus_rtp_seed_001_with_1000_line():
    rtp, events = _thb_bonus_rtp("holdem_bonus")
    print(f"\nTHB Bonus RTP with the AA-vs-dealer-AA 1000:1 line: {float(rtp) * 100:.6f} %")
    assert sum(events.values()) == 1326 * 1225
    # 6 AA combos x 1 dealer AA each (the other two aces) out of 1225 dealer hands.
    assert events["AA_vs_AA"] == 6 * 1
    assert events["AA"] == 6 * 1224
    assert round(float(rtp) * 100, 2) == 91.46  # the Icelandic rules
    # By hand: per 1326 x 1225 hole-and-dealer deals, returns (pay + 1) are
    # AA (31 x 1224 + 1001 x 1) x 6, AKs 26 x 4, AQs/AJs 21 x 8, AKo 16 x 12, KK-JJ 11 x 18,
    # AQo/AJo 6 x 24, TT-22 4 x 54 (each x 1225).
    by_hand = Fraction(
        6 * (31 * 1224 + 1001) + 1225 * (26 * 4 + 21 * 8 + 16 * 12 + 11 * 18 + 6 * 24 + 4 * 54),
        1326 * 1225,
    )
    assert rtp == by_hand


def test_thb_bonus_rtp_seed_000_without_1000_line():
    rtp, events = _thb_bonus_rtp("holdem_bonus_classic")
    print(f"\nTHB Bonus RTP without the 1000:1 line: {float(rtp) * 100:.6f} %")
    assert round(float(rtp) * 100, 2) == 91.10  # the Swedish rules
    # By hand: (31 x 6 + 26 x 4 + 21 x 8 + 16 x 12 + 11 x 18 + 6 x 24 + 4 x 54) / 1326
    assert rtp == Fraction(1208, 1326)


def test_ch_aa_bonus_always_settled(all_five_card_rounds):
    rules = load_config("casino_holdem")
    rtp, counts = _settle_chunks(all_five_card_rounds, rules, _ch_call, "aa_bonus")
    print(f"\nCasino Hold'em AA Bonus RTP, always settled: {float(rtp) * 100:.6f} %")
    assert sum(counts.values()) == N5
    for cat, n in FIVE_CARD_COUNTS.items():
        if cat == "pair":
            assert counts["pair_of_aces"] == n // 13
            assert counts["pair_below_aces"] == n - n // 13
        else:
            assert counts[cat] == n, cat
    assert round(float(rtp) * 100, 2) == 93.60  # the Norwegian rules, side-bet-optimal strategy
    # By hand: flush or better 26 x 9,516 hands, pair of aces .. straight 8 x 273,144 hands.
    assert rtp == Fraction(26 * 9516 + 8 * 273144, N5)


def test_ch_aa_bonus_evolution_paytable(all_five_card_rounds):
    rules = load_config("casino_holdem_evolution")
    rtp, _ = _settle_chunks(all_five_card_rounds, rules, _ch_call, "aa_bonus")
    print(f"\nCasino Hold'em AA Bonus 100/50/40/30/20/7, always settled: {float(rtp) * 100:.6f} %")
    # By hand: 101 x 4 + 51 x 36 + 41 x 624 + 31 x 3744 + 21 x 5108 + 8 x 273144.
    assert rtp == Fraction(101 * 4 + 51 * 36 + 41 * 624 + 31 * 3744 + 21 * 5108 + 8 * 273144, N5)


def test_thb_jackpot_fixed_prizes(all_five_card_rounds):
    rules = load_config("holdem_bonus")

    def fold(n):
        return {k: np.zeros(n, bool) for k in ("flop", "turn", "river")}

    # The meter is 0 (the reset value), so the returns are the fixed prizes alone.
    fixed, counts = _settle_chunks(all_five_card_rounds, rules, fold, "jackpot")
    for cat, n in FIVE_CARD_COUNTS.items():
        assert counts[cat] == n, cat
    # "X for 1": 2500 x 36 + 250 x 624 + 50 x 3744 + 25 x 5108 + 10 x 10200 + 3 x 54912.
    assert fixed == Fraction(827_636, N5)
    meter_share = Fraction(rules.meter.contribution_bp, 10_000)
    total = fixed + meter_share
    print(
        f"\nTHB Jackpot: fixed prizes {float(fixed) * 100:.6f} %, + meter share "
        f"{float(meter_share) * 100:.2f} % = {float(total) * 100:.6f} %"
    )
    # The Icelandic rules publishes 81.84 %: the shipped contribution rate (reset 0) reproduces it.
    assert round(float(total) * 100, 2) == 81.84
