"""The exact solver of described games against a brute force written here from the rule text.

Three Card Poker, Caribbean Stud, Mississippi Stud and Let It Ride are described in TOML only,
and :func:`gpusim.games.described.solver.solve` analyses them exactly from that description: the
generic layout, engine and decision tree of :mod:`gpusim.games.described`. The brute force
below shares none of it. Each game is re-implemented by hand from its rules as the configs'
comments and ``docs/describe-a-game.md`` state them (qualifiers, the Ante Bonus, Pair Plus after
a fold, the Raise paid on its paytable, Mississippi's pair lines, what a pulled bet is worth),
with only these taken from gpusim:

- the 5-card and 3-card hand evaluators (``evaluate_np``, ``evaluate_three_np``), which are
  checked exhaustively elsewhere; royal flushes and pair ranks are read off the cards here;
- the numbers of each config (``[stakes]``, ``[paytables]``) as loaded, so that the test follows
  the config's pays while the meaning of each line is coded here.

On a reduced deck (a few suits and ranks, chosen so that each game's qualifier, pay lines and
strategy thresholds are reachable) every deal is enumerated: player cards and dealer cards as
sets, the dealer's face-up card apart from its hidden ones, each street's card in order. The
optimal play is backward induction over raw information sets (the exact cards seen at each
point, the street cards in the order dealt, and the bets already made), ties going to the first
action as the solver's do (Mississippi Stud has ties: a street whose bets all come to 0 bets
1x); a rule strategy is coded from its description. Then the solver must
agree exactly, in integers and Fractions: the deal count, each first-point information set's
deals and summed net per action, the net histogram of the round and of every bet (a bet not
placed or pulled back counts as net 0), and how many deals took each action.

``test_three_card_poker_full_deck`` (slow) anchors the brute force itself to the published
figures: Three Card Poker's house edge per Ante is 3.37 % under Q-6-4 (the optimal strategy) and
Pair Plus 40/30/6/4/1 keeps 2.32 %.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations

import numpy as np
import pytest

from gpusim.config import load_config
from gpusim.evaluator import evaluate_np, evaluate_three_np

FACES = "23456789TJQKA"
TEN, QUEEN, KING, ACE = 8, 10, 11, 12  # rank = card >> 2
POKER = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
         "four_of_a_kind", "straight_flush", "royal_flush")
THREE_CARD = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")


def make_deck(*suits: str) -> tuple[int, ...]:
    """The cards of the faces given for each suit in turn (suit = card & 3)."""
    return tuple(sorted(FACES.index(f) * 4 + s for s, faces in enumerate(suits) for f in faces))


# Each deck makes every line of its game's paytables and the thresholds of its rules reachable,
# and its optimal play folds, bets and rides at every point (two suits of many ranks keep most
# hands unpaired, as in the full deck, where three or four suits of few ranks would pair nearly
# every hand and make folding pointless; one rank in all four suits makes trips and quads).
# Three Card Poker: Q-high qualifies, Q-6-4 is dealt exactly and Q-4-3 below it, A-2-3 and
# Q-K-A are straights. Caribbean Stud: A-K high qualifies and A-Q-J-T-9 does not; every Raise
# line from high card to the royal. Mississippi Stud: a pair of 2s to 5s
# loses, of 10s pushes, of J-A pays; every line up to the royal. Let It Ride: pairs of 2s to 9s
# lose, 10s to aces pay; every line up to the royal.
DECKS = {
    "three_card_poker": make_deck("2346JQKA", "2346JQKA", "2346JQKA"),
    "caribbean_stud": make_deck("9TJQKA", "9TJQKA", "A", "A"),
    "mississippi_stud": make_deck("2345TJQKA", "2345TJQKA", "5", "5"),
    "let_it_ride": make_deck("2349TJQKA", "2349TJQKA", "4", "4"),
}


@dataclass
class Truth:
    """What the brute force finds: net results in whole money units (every pay here is X:1)."""

    deals: int
    root: dict  # (player cards, up cards) sorted tuples -> (deals, summed net per action)
    histograms: dict  # None (the round) or a bet -> {net: deals}
    actions: dict  # point -> {action: deals}


# --------------------------------------------------------------------------- helpers


def combos(cards, k: int) -> np.ndarray:
    return np.array(list(combinations(cards, k)), np.int64).reshape(-1, k)


def rest_of(hands: np.ndarray, deck) -> np.ndarray:
    """(n, len(deck) - k): the deck's cards not in each row of ``hands``, in deck order."""
    d = np.array(deck, np.int64)
    keep = ~(hands[:, :, None] == d[None, None, :]).any(1)
    return np.broadcast_to(d, keep.shape)[keep].reshape(len(hands), -1)


def paytable(rules, name: str) -> dict[str, int]:
    return dict(rules.paytables)[name].as_dict()


def poker_line(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index into POKER (the royal apart) and the highest paired rank (-1: none) of (..., 5)."""
    shape = cards.shape[:-1]
    flat = cards.reshape(-1, 5)
    cat = (evaluate_np(flat).astype(np.int64) >> 27).reshape(shape)
    r = np.sort(cards >> 2, -1)
    # the wheel is the only straight flush with an ace but no king
    royal = (cat == POKER.index("straight_flush")) & (r[..., -1] == ACE) & (r[..., -2] == KING)
    cat = np.where(royal, POKER.index("royal_flush"), cat)
    paired = np.where(r[..., 1:] == r[..., :-1], r[..., :-1], -1).max(-1)
    return cat, paired


def paytable_pay(cat, paired, pays: dict[str, int], pair_lines: dict[str, tuple[str, str]]):
    """X of an X:1 pay per hand; -1 (the stake lost) for a hand on none of the lines."""
    known = set(POKER) | set(pair_lines)
    assert set(pays) <= known, f"a line this test does not know: {set(pays) - known}"
    out = np.full(cat.shape, -1, np.int64)
    for i, name in enumerate(POKER):
        if name in pays:
            out[cat == i] = pays[name]
    for name, (lo, hi) in pair_lines.items():
        if name in pays:
            rank = (paired >= FACES.index(lo)) & (paired <= FACES.index(hi))
            out[(cat == POKER.index("pair")) & rank] = pays[name]
    return out


def pair_of_tens_or_better(cards: np.ndarray) -> np.ndarray:
    """The cards seen (3 or 4) reach a pair of 10s: such a pair, two pair, trips or quads."""
    counts = ((cards >> 2)[..., None] == np.arange(13)).sum(-2)
    return ((counts.max(-1) >= 3) | ((counts == 2).sum(-1) >= 2)
            | (counts[..., TEN:] >= 2).any(-1))


def choose(values: np.ndarray, rule) -> tuple[np.ndarray, np.ndarray]:
    """The action taken at each information set (``values[..., a]``: the summed net of action
    a) and its value: a rule strategy's given action, or the best, the first among equals."""
    act = values.argmax(-1) if rule is None else np.broadcast_to(rule, values.shape[:-1])
    return act, np.take_along_axis(values, act[..., None], -1)[..., 0]


def histogram(net: np.ndarray) -> Counter:
    """{net: deals} of whole-unit nets, one deal per element."""
    net = np.asarray(net, np.int64).ravel()
    lo = int(net.min())
    counts = np.bincount(net - lo)  # a count, not a sort: the full-deck check has 400M deals
    return Counter({Fraction(int(v) + lo): int(c) for v, c in enumerate(counts) if c})


def action_counts(names, acts: np.ndarray, weight) -> dict[str, int]:
    """Deals taking each action: ``acts`` per information set (-1: not reached), ``weight``
    deals per information set."""
    w = np.broadcast_to(weight, acts.shape)
    return {name: int(w[acts == i].sum()) for i, name in enumerate(names)}


def root_rows(player: np.ndarray) -> list[tuple]:
    """The first point's information-set keys of a game without dealer up cards."""
    return [(tuple(sorted(p)), ()) for p in player.tolist()]


# --------------------------------------------------------------------------- the games


def plays_q64(player: np.ndarray, cat: np.ndarray) -> np.ndarray:
    """Q-6-4 or better by three-card ranking: any pair or better, else the high cards compared
    highest first."""
    r = np.sort(player >> 2, -1)[:, ::-1]
    high = r[:, 0] * 169 + r[:, 1] * 13 + r[:, 2]
    return (cat > 0) | (high >= FACES.index("Q") * 169 + FACES.index("6") * 13
                        + FACES.index("4"))


def three_card_poker(rules, deck, strategy: str, chunk_deals: int = 3_000_000) -> Truth:
    """Ante and Play against the dealer's three cards, Q-high to qualify: no qualifier pays
    the Ante 1:1 and pushes the Play, else the better hand wins both 1:1, a tie pushes. The
    Ante Bonus pays on top whenever the player plays; Pair Plus pays the player's cards even
    after a fold. A fold loses the Ante."""
    ante, side = rules.stakes["ante"], rules.stakes["pair_plus"]
    bonus_pays, pp_pays = paytable(rules, "ante_bonus"), paytable(rules, "pair_plus")
    assert set(bonus_pays) | set(pp_pays) <= set(THREE_CARD)
    bonus = np.array([bonus_pays.get(c, 0) for c in THREE_CARD])  # a bonus, never a loss
    pair_plus = np.array([pp_pays.get(c, -1) for c in THREE_CARD])
    # every three-card hand of the deck ranked once, looked up by its cards: the full-deck
    # check deals 400M dealer hands
    hands = combos(deck, 3)
    ranked = evaluate_three_np(hands).astype(np.int64)
    qualified = ((ranked >> 27) > 0) | ((hands >> 2).max(-1) >= QUEEN)
    rank_of = np.zeros((52, 52, 52), np.int64)
    qualifies_of = np.zeros((52, 52, 52), bool)
    for order in permutations(range(3)):
        at = tuple(hands[:, j] for j in order)
        rank_of[at], qualifies_of[at] = ranked, qualified

    player_all = combos(deck, 3)
    n_rest = len(deck) - 3
    dealer_idx = combos(range(n_rest), 3)
    per_hand = len(dealer_idx)
    root: dict = {}
    hists: dict = {None: Counter(), "ante": Counter(), "play": Counter(), "pair_plus": Counter()}
    played = folded = 0
    step = max(1, chunk_deals // per_hand)
    for lo in range(0, len(player_all), step):
        player = player_all[lo:lo + step]
        dealer = rest_of(player, deck)[:, dealer_idx]  # (n, per_hand, 3)
        p_rank = rank_of[player[:, 0], player[:, 1], player[:, 2]]
        d_rank = rank_of[dealer[..., 0], dealer[..., 1], dealer[..., 2]]
        p_cat = p_rank >> 27
        qualifies = qualifies_of[dealer[..., 0], dealer[..., 1], dealer[..., 2]]
        beat = np.sign(p_rank[:, None] - d_rank)
        ante_played = ante * np.where(qualifies, beat, 1) + ante * bonus[p_cat][:, None]
        play_bet = ante * np.where(qualifies, beat, 0)
        pp = np.broadcast_to((side * pair_plus[p_cat])[:, None], beat.shape)
        total_fold = -ante + pp
        total_play = ante_played + play_bet + pp
        ev = np.stack([total_fold.sum(1), total_play.sum(1)], -1)
        if strategy == "optimal":
            rule = None
        elif strategy == "q64":
            rule = plays_q64(player, p_cat).astype(np.int64)
        elif strategy == "always-play":
            rule = np.ones(len(player), np.int64)
        else:
            raise AssertionError(strategy)
        act, _ = choose(ev, rule)
        for key, e in zip(root_rows(player), ev.tolist(), strict=True):
            root[key] = (per_hand, tuple(e))
        plays = act[:, None] == 1
        hists[None] += histogram(np.where(plays, total_play, total_fold))
        hists["ante"] += histogram(np.where(plays, ante_played, -ante))
        hists["play"] += histogram(np.where(plays, play_bet, 0))
        hists["pair_plus"] += histogram(pp)
        played += int((act == 1).sum()) * per_hand
        folded += int((act == 0).sum()) * per_hand
    return Truth(len(player_all) * per_hand, root, hists,
                 {"play": {"fold": folded, "play": played}})


def caribbean_stud(rules, deck, strategy: str) -> Truth:
    """Five cards each, one of the dealer's face up. Fold loses the Ante; a Raise is 2x the
    Ante. The dealer qualifies with A-K high or better: if not, the Ante pays 1:1 and the Raise
    pushes; else a player who wins is paid 1:1 on the Ante and the Raise paytable on the Raise,
    a tie pushes both, a loss loses both."""
    ante = rules.stakes["ante"]
    raise_pays = paytable_pay(np.arange(len(POKER)), np.full(len(POKER), -1),
                              paytable(rules, "raise"), {})
    player = combos(deck, 5)
    rest = rest_of(player, deck)
    m = rest.shape[1]
    hidden = [combos([j for j in range(m) if j != u], 4) for u in range(m)]
    dealer_idx = np.stack([np.concatenate([np.full((len(h), 1), u), h], 1)
                           for u, h in enumerate(hidden)])  # (up, hidden sets, 5), up first
    dealer = rest[:, dealer_idx]  # (player, up, hidden sets, 5)
    n_hidden = dealer_idx.shape[1]
    p_cat, _ = poker_line(player)
    p_rank = evaluate_np(player).astype(np.int64)
    d_rank = evaluate_np(dealer.reshape(-1, 5)).astype(np.int64).reshape(dealer.shape[:3])
    d_ranks = dealer >> 2
    qualifies = (((d_rank >> 27) > 0) | ((d_ranks == ACE).any(-1) & (d_ranks == KING).any(-1)))
    beat = np.sign(p_rank[:, None, None] - d_rank)
    ante_raised = ante * np.where(qualifies, beat, 1)
    win_pay = raise_pays[p_cat][:, None, None]
    raise_bet = 2 * ante * np.where(qualifies, np.where(beat > 0, win_pay, beat), 0)
    total_raise = ante_raised + raise_bet
    ev = np.stack([np.full((len(player), m), -ante * n_hidden), total_raise.sum(-1)], -1)
    if strategy == "optimal":
        rule = None
    elif strategy == "pair-or-better":
        rule = (p_cat >= POKER.index("pair")).astype(np.int64)[:, None]
    elif strategy == "always-raise":
        rule = np.int64(1)
    else:
        raise AssertionError(strategy)
    act, _ = choose(ev, rule)
    raises = act[..., None] == 1
    root = {}
    for p, ups, evs in zip(player.tolist(), rest.tolist(), ev.tolist(), strict=True):
        for u, e in zip(ups, evs, strict=True):
            root[(tuple(p), (u,))] = (n_hidden, tuple(e))
    hists = {
        None: histogram(np.where(raises, total_raise, -ante)),
        "ante": histogram(np.where(raises, ante_raised, -ante)),
        "raise": histogram(np.where(raises, raise_bet, 0)),
    }
    return Truth(dealer.shape[0] * m * n_hidden, root, hists,
                 {"raise": action_counts(("fold", "raise"), act, n_hidden)})


MISSISSIPPI_PAIRS = {"pair_jacks_or_better": ("J", "A"), "pair_6_to_10": ("6", "T"),
                     "pair_2_to_5": ("2", "5")}
MISSISSIPPI_ACTIONS = ("fold", "bet_1x", "bet_2x", "bet_3x")


def mississippi_stud(rules, deck, strategy: str) -> Truth:
    """Two player cards, three community cards one at a time. Before each the player folds
    (losing the Ante and every bet so far) or bets 1x, 2x or 3x the Ante. Every bet is paid on
    the final five-card hand: X:1 on a paying line, 0 pushing (a pair of 6s to 10s), the stake
    lost on no line (a pair of 2s to 5s, a high card)."""
    ante = rules.stakes["ante"]
    pays = paytable(rules, "main")
    player = combos(deck, 2)
    rest = rest_of(player, deck)
    m = rest.shape[1]
    streets = rest[:, np.array(list(permutations(range(m), 3)))]  # lexicographic: a, b, c
    final = np.concatenate([np.broadcast_to(player[:, None], streets.shape[:2] + (2,)),
                            streets], -1)
    mult = paytable_pay(*poker_line(final), pays, MISSISSIPPI_PAIRS).reshape(
        len(player), m, m - 1, m - 2)
    n5, n4, n3 = m - 2, (m - 1) * (m - 2), m * (m - 1) * (m - 2)
    rule = None if strategy == "optimal" else {"always-1x": np.int64(1)}[strategy]

    # Values in ante units, keyed by the stake already out (the Ante and the bets before):
    # later choices depend on it, so every reachable stake is valued.
    m5 = mult.sum(-1)
    act5, val5 = {}, {}
    for s in range(3, 8):
        vals = np.stack([np.full(m5.shape, -s * n5)] + [(s + k) * m5 for k in (1, 2, 3)], -1)
        act5[s], val5[s] = choose(vals, rule)
    act4, val4 = {}, {}
    for s in range(2, 5):
        vals = np.stack([np.full(m5.shape[:2], -s * n4)]
                        + [val5[s + k].sum(-1) for k in (1, 2, 3)], -1)
        act4[s], val4[s] = choose(vals, rule)
    ev = np.stack([np.full(len(player), -n3)] + [val4[1 + k].sum(-1) for k in (1, 2, 3)], -1)
    t, _ = choose(ev, rule)

    players = np.arange(len(player))
    table4 = np.stack([act4[s] for s in (2, 3, 4)])  # by the stake out: 1 + the third bet
    f = table4[np.clip(t - 1, 0, 2)[:, None], players[:, None], np.arange(m)[None]]
    f = np.where((t > 0)[:, None], f, -1)
    table5 = np.stack([act5[s] for s in range(3, 8)])
    s5 = 1 + t[:, None] + f
    k = table5[np.clip(s5 - 3, 0, 4)[..., None], players[:, None, None],
               np.arange(m)[None, :, None], np.arange(m - 1)[None, None]]
    k = np.where((f > 0)[..., None], k, -1)

    tt = np.broadcast_to(t[:, None, None, None], mult.shape)
    ff = np.broadcast_to(f[:, :, None, None], mult.shape)
    kk = np.broadcast_to(k[..., None], mult.shape)
    folded = (tt == 0) | (ff == 0) | (kk == 0)
    bets = {
        "ante": np.where(folded, -1, mult),
        "third": np.where(tt <= 0, 0, np.where(folded, -tt, tt * mult)),
        "fourth": np.where(ff <= 0, 0, np.where(folded, -ff, ff * mult)),
        "fifth": np.where(kk <= 0, 0, kk * mult),
    }
    nets = {b: ante * v for b, v in bets.items()}
    hists = {b: histogram(v) for b, v in nets.items()}
    hists[None] = histogram(sum(nets.values()))
    root = dict(zip(root_rows(player), ((n3, tuple((ante * ev[i]).tolist()))
                                        for i in range(len(player))), strict=True))
    actions = {
        "third": action_counts(MISSISSIPPI_ACTIONS, t, n3),
        "fourth": action_counts(MISSISSIPPI_ACTIONS, f, n4),
        "fifth": action_counts(MISSISSIPPI_ACTIONS, k, n5),
    }
    return Truth(mult.size, root, hists, actions)


LET_IT_RIDE_PAIRS = {"pair_tens_or_better": ("T", "A"), "pair_below_tens": ("2", "9")}


def let_it_ride(rules, deck, strategy: str) -> Truth:
    """Three equal bets and three player cards; two community cards one at a time. Before
    the first the player pulls the first bet back or lets it ride, before the second the same
    for the second; the third always rides. Each bet left is paid on the final five-card hand,
    X:1 on a paying line, lost on none; a pulled bet neither wins nor loses."""
    stake = rules.stakes["third"]
    pays = paytable(rules, "main")
    player = combos(deck, 3)
    rest = rest_of(player, deck)
    m = rest.shape[1]
    streets = rest[:, np.array(list(permutations(range(m), 2)))]
    final = np.concatenate([np.broadcast_to(player[:, None], streets.shape[:2] + (3,)),
                            streets], -1)
    mult = paytable_pay(*poker_line(final), pays, LET_IT_RIDE_PAIRS).reshape(
        len(player), m, m - 1)
    n2, n1 = m - 1, m * (m - 1)
    if strategy == "optimal":
        rule1 = rule2 = None
    elif strategy == "ride-on-a-paying-hand":
        rule1 = pair_of_tens_or_better(player).astype(np.int64)
        seen2 = np.concatenate([np.broadcast_to(player[:, None], (len(player), m, 3)),
                                rest[:, :, None]], -1)
        rule2 = pair_of_tens_or_better(seen2).astype(np.int64)
    else:
        raise AssertionError(strategy)
    m2 = mult.sum(-1)
    act2, val2 = {}, {}
    for r1 in (0, 1):  # the second decision sees whether the first bet rides
        act2[r1], val2[r1] = choose(np.stack([(1 + r1) * m2, (2 + r1) * m2], -1), rule2)
    ev = np.stack([val2[0].sum(-1), val2[1].sum(-1)], -1)
    r1, _ = choose(ev, rule1)
    r2 = np.where(r1[:, None] == 1, act2[1], act2[0])
    rr1 = np.broadcast_to(r1[:, None, None], mult.shape)
    rr2 = np.broadcast_to(r2[..., None], mult.shape)
    nets = {"third": stake * mult, "first": stake * rr1 * mult, "second": stake * rr2 * mult}
    hists = {b: histogram(v) for b, v in nets.items()}
    hists[None] = histogram(sum(nets.values()))
    root = dict(zip(root_rows(player), ((n1, tuple((stake * ev[i]).tolist()))
                                        for i in range(len(player))), strict=True))
    actions = {"first": action_counts(("pull", "ride"), r1, n1),
               "second": action_counts(("pull", "ride"), r2, n2)}
    return Truth(mult.size, root, hists, actions)


BRUTE = {
    "three_card_poker": three_card_poker,
    "caribbean_stud": caribbean_stud,
    "mississippi_stud": mississippi_stud,
    "let_it_ride": let_it_ride,
}
PLAYER_CARDS = {"three_card_poker": 3, "caribbean_stud": 5, "mississippi_stud": 2,
                "let_it_ride": 3}


@cache
def rules_of(game: str):
    return load_config(game)


@cache
def truth_of(game: str, strategy: str) -> Truth:
    return BRUTE[game](rules_of(game), DECKS[game], strategy)


# --------------------------------------------------------------------------- the comparison


def disagreements(truth: Truth, res, n_player: int) -> list[str]:
    """Every quantity on which the solver's result differs from the brute force (at most a few
    rows of each)."""
    out = []
    if res.deals != truth.deals:
        out.append(f"deals: solver {res.deals}, brute force {truth.deals}")
    scale = int(res.scale)
    cards = np.asarray(res.root_cards).tolist()
    if len(cards) != len(truth.root):
        out.append(f"root rows: solver {len(cards)}, brute force {len(truth.root)}")
    seen = set()
    bad = []
    for i, row in enumerate(cards):
        key = (tuple(sorted(row[:n_player])), tuple(sorted(row[n_player:])))
        seen.add(key)
        if key not in truth.root:
            bad.append(f"root row {key}: not an information set of the brute force")
            continue
        deals, ev = truth.root[key]
        got_deals = int(res.root_deals[i])
        got_ev = tuple(Fraction(int(x), scale) for x in res.root_ev[i])
        if got_deals != deals or got_ev != ev:
            bad.append(f"root row {key}: solver deals {got_deals} ev {got_ev}, brute force "
                       f"deals {deals} ev {ev}")
    missing = set(truth.root) - seen
    if missing:
        bad.append(f"{len(missing)} information sets missing, e.g. {sorted(missing)[:3]}")
    out += bad[:5] + ([f"... and {len(bad) - 5} more root rows"] if len(bad) > 5 else [])
    for bet, want in truth.histograms.items():
        got = {Fraction(k): v for k, v in res.net_histogram(bet).items() if v}
        if got != dict(want):
            out.append(f"net_histogram({bet!r}): solver {sorted(got.items())}, brute force "
                       f"{sorted(want.items())}")
    got_actions = res.action_counts()
    if got_actions != truth.actions:
        out.append(f"action_counts: solver {got_actions}, brute force {truth.actions}")
    return out


CASES = [
    ("three_card_poker", "optimal"),
    ("three_card_poker", "q64"),
    ("caribbean_stud", "optimal"),
    ("caribbean_stud", "pair-or-better"),
    ("mississippi_stud", "optimal"),
    ("mississippi_stud", "always-1x"),
    ("let_it_ride", "optimal"),
    ("let_it_ride", "ride-on-a-paying-hand"),
]


@pytest.mark.parametrize(("game", "strategy"), CASES)
def test_solver_matches_brute_force(game, strategy):
    from gpusim.games.described.solver import solve

    truth = truth_of(game, strategy)
    # the brute force's own bookkeeping: every deal in exactly one first-point set, once in
    # each histogram, and at the first point once
    assert sum(d for d, _ in truth.root.values()) == truth.deals
    assert all(sum(h.values()) == truth.deals for h in truth.histograms.values())
    first = next(iter(truth.actions.values()))
    assert sum(first.values()) == truth.deals
    res = solve(rules_of(game), strategy=strategy, deck=DECKS[game])
    problems = disagreements(truth, res, PLAYER_CARDS[game])
    assert not problems, f"{game} ({strategy}) on {len(DECKS[game])} cards:\n" + "\n".join(
        problems)


def test_optimal_is_at_least_each_rule_strategy():
    """Backward induction finds the best play: on every first-point information set its value
    is at least what any rule strategy's first action earns, and in total strictly more
    wherever the rule strategy is not itself optimal (all four baselines here are not)."""
    for game, strategy in CASES:
        if strategy == "optimal":
            continue
        best, rule = truth_of(game, "optimal"), truth_of(game, strategy)
        for key, (_, ev) in best.root.items():
            assert max(ev) >= max(rule.root[key][1]), (game, key)
        total = {s: sum(n * v for v, n in t.histograms[None].items())
                 for s, t in (("optimal", best), (strategy, rule))}
        assert total["optimal"] > total[strategy], (game, total)


@pytest.mark.slow
def test_three_card_poker_full_deck():
    """The brute force on all 52 cards gives the published Three Card Poker figures."""
    rules = rules_of("three_card_poker")
    truth = three_card_poker(rules, tuple(range(52)), "optimal")
    assert truth.deals == 22100 * 18424
    ante = sum(n * v for v, n in truth.histograms["ante"].items()) + sum(
        n * v for v, n in truth.histograms["play"].items())
    pair_plus = sum(n * v for v, n in truth.histograms["pair_plus"].items())
    assert round(float(-ante / truth.deals) * 100, 2) == 3.37
    assert round(float(-pair_plus / truth.deals) * 100, 2) == 2.32
    # Q-6-4 is the optimal strategy: it plays exactly the hands where playing earns more
    player = np.array([p for p, _ in truth.root], np.int64)
    best = np.array([ev[1] > ev[0] for _, ev in truth.root.values()])
    cat = evaluate_three_np(player).astype(np.int64) >> 27
    assert (plays_q64(player, cat) == best).all()
