"""Settlement against an independent per-round reference (eval7 hand ranks, the rules' text),
conservation of money bet by bet, return tables, and the settle() contract."""


import eval7
import jax
import numpy as np
import pytest
from ch_reference import ch_terms
from thb_reference import thb_terms
from uth_reference import uth_terms

from gpusim.cards import CATEGORY_KEYS, format_card
from gpusim.config import load_config, shipped_configs
from gpusim.games import bets, decision_names, event_names, event_returns, settle, spec_for

_TYPES = {
    "High Card": "high_card",
    "Pair": "pair",
    "Two Pair": "two_pair",
    "Trips": "three_of_a_kind",
    "Straight": "straight",
    "Flush": "flush",
    "Full House": "full_house",
    "Quads": "four_of_a_kind",
    "Straight Flush": "straight_flush",
}
ORDER = list(_TYPES.values()) + ["royal_flush"]


def _ev7(codes):
    return eval7.evaluate([eval7.Card(format_card(c)) for c in codes])


def _category(codes) -> str:
    cat = _TYPES[eval7.handtype(_ev7(codes))]
    if cat == "straight_flush":
        for suit in range(4):
            if all(4 * r + suit in codes for r in (8, 9, 10, 11, 12)):
                return "royal_flush"
    return cat


def _ge(cat: str, floor: str) -> bool:
    return ORDER.index(cat) >= ORDER.index(floor)


# --- the reference: one round at a time, straight from the rules ------------------------------


def _qualifies(rules, d7, dc) -> bool:
    """The dealer's seven cards ``d7`` (category ``dc``) qualify under a pair qualifier."""
    dranks = [x >> 2 for x in d7]
    pair_rank = max((r for r in set(dranks) if dranks.count(r) >= 2), default=-1)
    q = rules.dealer_qualifier
    assert q.hand == "pair"  # the reference only knows pair qualifiers
    return _ge(dc, "two_pair") or (dc == "pair" and pair_rank >= q.rank)


def ref_casino_holdem(rules, c, call):
    """{bet: (stake, returned, event)} for one round."""
    p7, d7 = [c[0], c[1], *c[4:9]], [c[2], c[3], *c[4:9]]
    pv, dv = _ev7(p7), _ev7(d7)
    pc, dc = _category(p7), _category(d7)
    qualifies = _qualifies(rules, d7, dc)
    ante = rules.stakes.ante
    pt = rules.ante_paytable
    pay = pt[pc] if pc in pt else pt["straight_or_less"]
    out = {}
    if not call:
        out["ante"] = (ante, 0, "fold")
    elif not qualifies:
        out["ante"] = (ante, ante * (1 + pay), f"dealer_not_qualified:{pc}")
        out["call"] = (2 * ante, 2 * ante, "dealer_not_qualified")
    elif pv > dv:
        out["ante"] = (ante, ante * (1 + pay), f"win:{pc}")
        out["call"] = (2 * ante, 4 * ante, "win")
    elif pv == dv:
        out["ante"] = (ante, ante, "tie")
        out["call"] = (2 * ante, 2 * ante, "tie")
    else:
        out["ante"] = (ante, 0, "loss")
        out["call"] = (2 * ante, 0, "loss")
    if rules.stakes["aa_bonus"]:
        five = [c[0], c[1], c[4], c[5], c[6]]
        b = _category(five)
        if b == "pair":
            b = "pair_of_aces" if sum(x >> 2 == 12 for x in five) >= 2 else "pair_below_aces"
        aa = rules.aa_bonus_paytable
        stake = rules.stakes["aa_bonus"]
        paid = b in aa and (call or not rules.fold_forfeits_bonus)
        out["aa_bonus"] = (stake, stake * (1 + aa[b]) if paid else 0, b if call else f"fold:{b}")
    return out


_BONUS_CLASS = {
    "AKs": "AKs", "AQs": "AQs_AJs", "AJs": "AQs_AJs", "AKo": "AKo", "KK": "KK_QQ_JJ",
    "QQ": "KK_QQ_JJ", "JJ": "KK_QQ_JJ", "AQo": "AQo_AJo", "AJo": "AQo_AJo",
    **{p: "TT_to_22" for p in ("TT", "99", "88", "77", "66", "55", "44", "33", "22")},
}


def ref_holdem_bonus(rules, c, flop, turn, river, meter):
    from gpusim.cards import hand_class

    p7, d7 = [c[0], c[1], *c[4:9]], [c[2], c[3], *c[4:9]]
    pv, dv = _ev7(p7), _ev7(d7)
    pc = _category(p7)
    a = rules.stakes.ante
    result = "win" if pv > dv else "tie" if pv == dv else "loss"
    per_unit = {"win": 2, "tie": 1, "loss": 0}[result]
    out = {}
    if not flop:
        out["ante"] = (a, 0, "fold")
    else:
        if result == "win":
            out["ante"] = (a, a * (2 if _ge(pc, rules.ante_pays_from) else 1), f"win:{pc}")
        else:
            out["ante"] = (a, a * per_unit, result)
        out["flop"] = (2 * a, 2 * a * per_unit, result)
        if turn:
            out["turn"] = (a, a * per_unit, result)
        if river:
            out["river"] = (a, a * per_unit, result)
    if rules.stakes["bonus"]:
        stake, pt = rules.stakes["bonus"], rules.bonus_paytable
        cls = hand_class(c[0], c[1])
        dealer_aa = c[2] >> 2 == 12 and c[3] >> 2 == 12
        if cls == "AA" and dealer_aa:
            pay, ev = pt.get("AA_vs_dealer_AA", pt["AA"]), "AA_vs_AA"
        elif cls == "AA":
            pay, ev = pt["AA"], "AA"
        elif cls in _BONUS_CLASS:
            pay, ev = pt[_BONUS_CLASS[cls]], cls
        else:
            pay, ev = None, "other"
        out["bonus"] = (stake, 0 if pay is None else stake * (1 + pay), ev)
    if rules.stakes["jackpot"]:
        stake, jp = rules.stakes["jackpot"], rules.jackpot
        cards = [c[0], c[1], c[4], c[5], c[6]] if jp.cards == "hole_and_flop" else p7
        jc = _category(cards)
        if jc == "royal_flush":
            ret = meter
        else:
            ret = stake * jp.prizes.get(jc, 0)
        out["jackpot"] = (stake, ret, jc)
    return out


def by_bet(refs, offered) -> dict[str, tuple[list, list, list]]:
    """{bet: (stakes, nets, event names)} of rounds settled by a reference (``refs``: each
    round's ``{bet: (stake, returned, event)}``); a bet a round leaves out: stake 0, net 0,
    event None."""
    out: dict[str, tuple[list, list, list]] = {b: ([], [], []) for b in offered}
    for ref in refs:
        for bet in offered:
            stake, returned, event = ref.get(bet, (0, 0, None))
            out[bet][0].append(stake)
            out[bet][1].append(returned - stake)
            out[bet][2].append(event)
    return out


def assert_settles_as(s, named, ref, offered, unplaced) -> None:
    """The settlement ``s`` (``named``: its event names, {bet: (N,)}) gives each bet the
    reference's stakes, nets and events (``ref``: :func:`by_bet`); a bet the reference leaves
    out of a round is one of ``unplaced`` (a fold, a check)."""
    for bet in offered:
        stakes, nets, events = (np.asarray(x, dtype=object) for x in ref[bet])
        placed = stakes != 0
        np.testing.assert_array_equal(np.asarray(s.stakes[bet]), stakes.astype(np.int64),
                                      err_msg=f"{bet} stakes")
        np.testing.assert_array_equal(np.asarray(s.nets[bet]), nets.astype(np.int64),
                                      err_msg=f"{bet} nets")
        bad = np.flatnonzero(placed & (named[bet] != events))
        assert bad.size == 0, (bet, [(named[bet][i], events[i]) for i in bad[:5]])
        assert set(named[bet][~placed]) <= set(unplaced), bet


def assert_hands_as_eval7(s, cards) -> None:
    """Each hold'em round's player and dealer categories, and which of the two is higher, are
    eval7's."""
    rows = np.asarray(cards).tolist()
    for who, hole in (("player", slice(0, 2)), ("dealer", slice(2, 4))):
        cats = [CATEGORY_KEYS.index(_category([*c[hole], *c[4:9]])) for c in rows]
        np.testing.assert_array_equal(np.asarray(getattr(s, f"{who}_category")), cats,
                                      err_msg=who)
    order = [np.sign(_ev7([*c[0:2], *c[4:9]]) - _ev7([*c[2:4], *c[4:9]])) for c in rows]
    got = np.sign(np.asarray(s.player_rank, np.int64) - np.asarray(s.dealer_rank, np.int64))
    np.testing.assert_array_equal(got, order, err_msg="player_rank vs dealer_rank")


def ref_ultimate_holdem(rules, c, multiple):
    """{bet: (stake, returned, event)} of one round; ``multiple``: the Play placed (4, 3, 2 or
    1 x ante), 0 for a fold."""
    p7, d7 = [c[0], c[1], *c[4:9]], [c[2], c[3], *c[4:9]]
    pv, dv = _ev7(p7), _ev7(d7)
    pc, dc = _category(p7), _category(d7)
    qualifies = _qualifies(rules, d7, dc)
    a = rules.stakes.ante
    result = "fold" if not multiple else "win" if pv > dv else "tie" if pv == dv else "loss"
    out = {}
    if result == "fold":
        out["ante"] = (a, 0, "fold")
    elif result in ("win", "loss") and not qualifies:
        out["ante"] = (a, a, "dealer_not_qualified")
    else:
        out["ante"] = (a, {"win": 2, "tie": 1, "loss": 0}[result] * a, result)
    blind_pay = rules.blind_paytable.get(pc) if result == "win" else None
    blind_back = {"fold": 0, "win": 1, "tie": 1, "loss": 0}[result]
    out["blind"] = (a, a * (1 + blind_pay) if blind_pay is not None else a * blind_back,
                    f"win:{pc}" if result == "win" else result)
    if multiple:
        out["play"] = (multiple * a, multiple * a * {"win": 2, "tie": 1, "loss": 0}[result],
                       result)
    if rules.stakes["trips"]:
        stake, pay = rules.stakes["trips"], rules.trips_paytable.get(pc)
        paid = pay is not None and (result == "win" or not rules.trips_must_beat)
        event = pc if not rules.trips_must_beat else ("beat:" if result == "win" else
                                                      "no_beat:") + pc
        out["trips"] = (stake, stake * (1 + pay) if paid else 0, event)
    return out


def _random_rounds(rng, n, deck, k=9):
    """n rounds of k distinct cards from ``deck`` (a card-code list)."""
    deck = np.asarray(deck, dtype=np.int32)
    idx = np.argsort(rng.random((n, len(deck))), axis=1)[:, :k]
    return deck[idx]


# Full decks plus stacked ones (tens to aces; two suits) so that royals, straight flushes,
# quads and flushes turn up in a few thousand rounds.
DECKS = {
    "full": list(range(52)),
    "broadway": list(range(32, 52)),
    "two_suits": [c for c in range(52) if c & 3 in (1, 3)],
}


REFERENCE_GAMES = ("casino_holdem", "holdem_bonus", "ultimate_holdem")
REFERENCE_CONFIGS = [n for n in shipped_configs() if load_config(n).game in REFERENCE_GAMES]
"""The shipped configs of the games the reference above settles."""


@pytest.mark.parametrize("deck", list(DECKS))
@pytest.mark.parametrize("config", REFERENCE_CONFIGS)
def test_matches_reference_and_conserves_money(config, deck):
    rules = load_config(config)
    rng = np.random.default_rng(
        [sorted(shipped_configs()).index(config), list(DECKS).index(deck)]
    )
    n = 1000
    cards = _random_rounds(rng, n, DECKS[deck])
    dec = {k: rng.random(n) < 0.75 for k in decision_names(rules)}
    if rules.game == "ultimate_holdem":  # every action of every point, Play 4x .. fold
        dec = {p.name: rng.integers(0, len(p.actions), n) for p in spec_for(rules).decisions}
    meter = rng.integers(0, 100_000, n)
    s = settle(cards, dec, rules, jackpot_meter=meter)
    names = s.event_names
    stakes = {b: np.asarray(v) for b, v in s.stakes.items()}
    nets = {b: np.asarray(v) for b, v in s.nets.items()}
    events = {b: np.asarray(v) for b, v in s.events.items()}
    returns = event_returns(rules)
    terms = {"ultimate_holdem": uth_terms, "casino_holdem": ch_terms,
             "holdem_bonus": thb_terms}[rules.game](rules)
    totals = {b: [0, 0] for b in bets(rules)}  # [wagered, returned] by the reference
    for i in range(n):
        c = cards[i].tolist()
        if rules.game == "casino_holdem":
            ref = ref_casino_holdem(terms, c, bool(dec["call"][i]))
        elif rules.game == "ultimate_holdem":
            pre, flop, river = (int(dec[k][i]) for k in ("preflop", "flop", "river"))
            ref = ref_ultimate_holdem(terms, c, pre + 2 if pre else 2 * flop or river)
        else:
            d = [bool(dec[k][i]) for k in ("flop", "turn", "river")]
            ref = ref_holdem_bonus(terms, c, *d, int(meter[i]))
        for bet in bets(rules):
            stake = int(stakes[bet][i])
            net = int(nets[bet][i])
            event = names[bet][int(events[bet][i])]
            if bet not in ref:
                assert stake == 0 and net == 0, (bet, c)
                continue
            r_stake, r_returned, r_event = ref[bet]
            assert (stake, net, event) == (r_stake, r_returned - r_stake, r_event), (bet, c)
            # The return table prices the same event the same way.
            per_unit = returns[bet][int(events[bet][i])]
            expect = int(meter[i]) if per_unit is None else stake * per_unit
            assert expect == r_returned, (bet, c)
            totals[bet][0] += r_stake
            totals[bet][1] += r_returned
    for bet, (wagered, returned) in totals.items():
        # Conservation: returned - wagered == sum of nets, bet by bet.
        assert returned - wagered == int(nets[bet].astype(np.int64).sum()), bet
        assert wagered == int(stakes[bet].astype(np.int64).sum()), bet


def test_contract_shapes_and_event_tables(shipped_name):
    rules = load_config(shipped_name)
    rng = np.random.default_rng(5)
    # as many cards as the game deals (Caribbean Stud: 10)
    cards = _random_rounds(rng, 64, range(52), spec_for(rules).cards_per_round)
    dec = {k: np.ones(64, bool) for k in decision_names(rules)}
    s = settle(cards, dec, rules)
    assert tuple(s.stakes) == tuple(s.nets) == tuple(s.events) == bets(rules)
    assert s.event_names == event_names(rules)
    for bet in bets(rules):
        assert s.stakes[bet].shape == s.nets[bet].shape == s.events[bet].shape == (64,)
        assert s.stakes[bet].dtype == s.nets[bet].dtype == s.events[bet].dtype == np.int32
        names = event_names(rules)[bet]
        assert len(set(names)) == len(names)
        assert len(event_returns(rules)[bet]) == len(names)
        ev = np.asarray(s.events[bet])
        assert ev.min() >= 0 and ev.max() < len(names)
    assert s.player_category.shape == s.dealer_category.shape == (64,)


def test_bets_offered():
    assert bets(load_config("casino_holdem")) == ("ante", "call", "aa_bonus")
    full = ("ante", "flop", "turn", "river", "bonus", "jackpot")
    assert bets(load_config("holdem_bonus")) == full
    assert bets(load_config("holdem_bonus_classic")) == full[:5]


def test_settlement_is_a_pytree_under_jit():
    rules = load_config("holdem_bonus")
    rng = np.random.default_rng(9)
    cards = _random_rounds(rng, 32, range(52))
    dec = {k: np.ones(32, bool) for k in ("flop", "turn", "river")}

    @jax.jit
    def total_net(c, meter):
        s = settle(c, dec, rules, jackpot_meter=meter)
        return sum(s.nets[b].sum() for b in s.nets), s

    tot, s = total_net(cards, 1234)
    plain = settle(cards, dec, rules, jackpot_meter=1234)
    assert int(tot) == sum(int(np.asarray(plain.nets[b]).sum()) for b in plain.nets)
    assert s.event_names == plain.event_names


def test_decision_keys_are_checked():
    rules = load_config("casino_holdem")
    cards = _random_rounds(np.random.default_rng(1), 4, range(52))
    with pytest.raises(ValueError, match="decisions"):
        settle(cards, {"flop": np.ones(4, bool)}, rules)
    with pytest.raises(ValueError, match="decisions"):
        settle(cards, {"call": np.ones(4, bool)}, load_config("holdem_bonus"))


def test_jackpot_royal_event_index():
    # the Jackpot's events are the categories of its hand, the royal flush (the meter's) once
    rules = load_config("holdem_bonus")
    names = event_names(rules)["jackpot"]
    royal = names.index("royal_flush")
    assert names.count("royal_flush") == 1
    assert event_returns(rules)["jackpot"][royal] is None  # the meter, not a fixed prize
    assert [i for i, r in enumerate(event_returns(rules)["jackpot"]) if r is None] == [royal]


def test_rules_are_static_and_hashable():
    a = load_config("casino_holdem")
    b = load_config("casino_holdem")
    assert a == b and hash(a) == hash(b)
    assert load_config("casino_holdem_evolution") != a
