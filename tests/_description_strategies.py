"""Hypothesis strategies that draw whole configs of described games (docs/describe-a-game.md):
the ``[game]`` table from the closed vocabulary, with its numbers (``[stakes]``,
``[paytables.<name>]``, ``[rules]``, ``[jackpot]``), as plain dicts, and a small TOML writer.

Every drawn config is valid by construction: each choice is made from what the earlier choices
allow (a hand of the cards dealt, a qualifier of the showdown's ranking, a condition a point's
cards can answer, a stake that makes every ratio pay whole). The games stay small enough for the
exact solver to count them in seconds (``limit``: the deals the solver walks, at most), so every
command, ``exact`` and ``certify`` included, can run on each. :func:`mutations` turns a valid
config into an invalid one and names the key path its one-line refusal must name.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import re

from hypothesis import strategies as st

RANKS = "23456789TJQKA"
POKER = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
         "four_of_a_kind", "straight_flush", "royal_flush")
THREE = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")
FEW = ("high_card", "pair", "two_pair", "three_of_a_kind", "four_of_a_kind")
CATS = {"poker": POKER, "three_card": THREE, "starting_hand": ()}
SIZES = {"poker": (5, 6, 7), "three_card": (3,), "starting_hand": (2,)}
STARTING_LINES = ("AA", "KK", "QQ-JJ", "22-TT", "AKs", "AKo", "AQs, AJs", "A2s-A5s", "KQ",
                  "K9s-KJs", "JTo", "Q6s-Q9s", "T9s")
"""Ranges of starting hands, no two sharing a hand (a paytable's lines pay different hands)."""
STARTING_RANGES = (*STARTING_LINES, "77+", "A2s+", "Q6s+", "22-55, AK", "k5O+")
SMALL = 3_000_000
"""Deals the exact solver walks in a game drawn for the quick tests (about two seconds)."""


# --- TOML ------------------------------------------------------------------------------------

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k)


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def to_toml(doc: dict) -> str:
    """``doc`` as TOML: its scalars, then a ``[table]`` per top-level table whose values are
    written inline (``tomllib.loads`` gives ``doc`` back)."""
    head = [f"{_key(k)} = {_value(v)}" for k, v in doc.items() if not isinstance(v, dict)]
    out = "\n".join(head) + "\n"
    for k, v in doc.items():
        if isinstance(v, dict):
            out += f"\n[{_key(k)}]\n" + "".join(f"{_key(kk)} = {_value(vv)}\n"
                                                for kk, vv in v.items())
    return out


# --- the game ------------------------------------------------------------------------------


def exact_cost(cards: dict) -> int:
    """The deals the exact solver walks, bounded above: the player's cards, the up cards and
    every street dealt (the dealer's hidden cards are counted by tables)."""
    p, u = cards["player"], cards.get("dealer_up", 0)
    board = sum(cards.get("streets", []))
    return math.comb(52, p) * math.comb(52 - p, u) * math.comb(52 - p - u, board)


def dealt_cost(cards: dict) -> int:
    """The deals the exact solver walks, bounded above, where a paytable reads the dealer's
    hidden cards (a game without streets): those cards are dealt out too."""
    p, u = cards["player"], cards.get("dealer_up", 0)
    hidden = cards.get("dealer", 0) - u
    return exact_cost(cards) * math.comb(52 - p - u - sum(cards.get("streets", [])), hidden)


@st.composite
def _cards(draw, limit: int):
    """(cards table, main ranking, the player's own hand's board cards)."""
    ranking = draw(st.sampled_from(("poker", "poker", "three_card", "starting_hand")))
    size = draw(st.sampled_from(SIZES[ranking]))
    own = draw(st.integers(1, min(size, 7)))
    need = size - own
    streets: list[int] = []
    while sum(streets) < need:
        streets.append(draw(st.integers(1, need - sum(streets))))
    while draw(st.integers(0, 3)) == 0 and len(streets) < 4 and own + sum(streets) < 14:
        streets.append(draw(st.integers(1, min(5, 14 - own - sum(streets)))))
    dealer = draw(st.sampled_from((0, 0, 3, 5, 2, 1, 4, 6, 7)))
    dealer = max(0, min(dealer, 15 - own - sum(streets)))
    up = draw(st.integers(0, dealer)) if draw(st.integers(0, 3)) == 0 else draw(
        st.integers(0, min(dealer, 1)))
    cards: dict = {"player": own}
    if dealer or draw(st.booleans()):
        cards["dealer"] = dealer
    if up or (dealer and draw(st.booleans())):
        cards["dealer_up"] = up
    if streets or draw(st.booleans()):
        cards["streets"] = streets
    if sum(streets) < need or exact_cost(cards) > limit:
        from hypothesis import assume

        assume(False)
    return cards, ranking, need


def _seat(k: int, board: int) -> list[str]:
    return [] if k == 0 else ["board"] if k == board else [f"board:{k}"]


@st.composite
def _ranks_partition(draw) -> list[tuple[int, int]]:
    """Consecutive rank spans covering 2..A once each, two or three of them."""
    cuts = sorted(draw(st.sets(st.integers(1, 12), min_size=1, max_size=2)))
    edges = [0, *cuts, 13]
    return [(edges[i], edges[i + 1] - 1) for i in range(len(edges) - 1)]


def _rank_text(lo: int, hi: int, draw) -> str:
    def one(k):
        return "10" if RANKS[k] == "T" and draw(st.booleans()) else RANKS[k]
    return one(lo) if lo == hi else f"{one(lo)}-{one(hi)}"


@st.composite
def _hand_spec(draw, ranking: str, few: bool = False) -> str:
    """A hand as a qualifier or ``at_least`` writes it."""
    cats = FEW if few else CATS[ranking]
    kind = draw(st.sampled_from(("category", "of", "high")))
    if kind == "category":
        return draw(st.sampled_from(cats))
    if kind == "of":
        named = [c for c in ("pair", "three_of_a_kind", "four_of_a_kind") if c in cats]
        r = RANKS[draw(st.integers(0, 12))]
        return f"{draw(st.sampled_from(named))} of {'10' if r == 'T' else r}s"
    n = draw(st.integers(1, 3))
    ranks = sorted(draw(st.sets(st.integers(0, 12), min_size=n, max_size=n)), reverse=True)
    return "-".join(RANKS[k] for k in ranks)


@st.composite
def _condition(draw, d: dict, street: int, player_three: bool):
    """One condition a point at ``street`` can ask: (key, value)."""
    cards = d["cards"]
    p = cards["player"]
    n_board = sum(cards.get("streets", [])[:street])
    n_seen = p + n_board
    three = n_seen == 3 and player_three
    ranking = "three_card" if three else "poker"
    few = ranking == "poker" and n_seen < 5
    options = ["at_least", "own_card_paired"] + (["hidden_pair"] if p >= 2 else [])
    if n_seen <= 7:
        options.append("category_in")
    if n_seen >= 2:
        options += ["suited", "suited_with_own", "run_with_own", "own_rank_count",
                    "paired_ranks", "suited_run_with_own"]
    if cards.get("dealer_up", 0):
        options += ["up_card_at_least", "up_card_paired"]
    if p == 2:
        options.append("hand_in")
    if 5 <= n_board <= 7 and n_seen <= 7:
        options.append("beats_board")
    if cards.get("dealer", 0) and 4 <= n_board <= 6 and 5 <= n_seen <= 7:
        options.append("dealer_outs_below")
    key = draw(st.sampled_from(options))
    if key == "at_least":
        return key, draw(_hand_spec(ranking, few))
    if key in ("hidden_pair", "own_card_paired", "up_card_paired", "beats_board"):
        return key, True
    if key == "category_in":
        cats = FEW if few else CATS[ranking]
        return key, draw(st.lists(st.sampled_from(cats), min_size=1, max_size=3, unique=True))
    if key == "suited":
        return key, draw(st.integers(2, n_seen))
    if key in ("suited_with_own", "own_rank_count"):
        top = n_seen if key == "suited_with_own" else min(4, n_seen)
        v: dict = {"cards": draw(st.integers(2, top))}
        if draw(st.booleans()):
            v["at_least"] = RANKS[draw(st.integers(0, 12))]
        return key, v
    if key in ("run_with_own", "suited_run_with_own"):
        return key, draw(st.integers(2, min(5, n_seen)))
    if key == "paired_ranks":
        return key, draw(st.integers(1, n_seen // 2))
    if key == "up_card_at_least":
        return key, RANKS[draw(st.integers(0, 12))]
    if key == "hand_in":
        return key, draw(st.sampled_from(STARTING_RANGES))
    if key == "dealer_outs_below":
        return key, draw(st.integers(1, 52))
    raise AssertionError(key)


def _pay(draw, allow_paytable: bool, ratio: bool) -> str:
    kinds = ["to1", "push", "lose"] + (["paytable"] if allow_paytable else []) + (
        ["ratio"] if ratio else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "to1":
        return f"{draw(st.integers(0, 5))}:1"
    if kind == "ratio":
        return f"{draw(st.integers(1, 9))}:2"
    return kind


def _pay_number(draw, ratio: bool, big: bool):
    if ratio and draw(st.integers(0, 4)) == 0:
        return f"{draw(st.integers(1, 9))}:2"
    if big and draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from((1000, 100_000, 1_000_000)))
    return draw(st.integers(0, 60))


@st.composite
def configs(draw, limit: int = SMALL, big_pays: bool = False) -> dict:
    """A whole config of a described game: ``[game]`` and its numbers, valid by construction."""
    cards, ranking, need = draw(_cards(limit))
    p = cards["player"]
    dealer = cards.get("dealer", 0)
    streets = cards.get("streets", [])
    board = sum(streets)
    hands: dict = {"h0": {"cards": ["player", *_seat(need, board)], "ranking": ranking}}
    # more hands: the player's cards with another part of the board, any ranking that fits
    dealer_cards = cards.get("dealer", 0)
    for i in range(draw(st.integers(0, 2))):
        # now and then the player's and the dealer's cards in one hand (a bet may pay it)
        both = draw(st.integers(0, 5)) == 0 and dealer_cards
        seats = ["player", "dealer"] if both else ["player"]
        n = p + (dealer_cards if both else 0)
        opts = [(rk, k) for rk in ("poker", "three_card", "starting_hand") for k in range(board + 1)
                if n + k in SIZES[rk]]
        if not opts:
            continue
        rk, k = draw(st.sampled_from(opts))
        hands[f"{'d' if both else 'h'}{i + 1}"] = {"cards": [*seats, *_seat(k, board)],
                                                   "ranking": rk}
    ratio = draw(st.booleans())
    game: dict = {"name": "", "cards": cards, "hands": hands}
    if draw(st.booleans()):
        game["title"] = draw(st.sampled_from(("A Drawn Game", "Fuzz Stud", "Ünïcode Poker")))

    # the showdown: the dealer's cards (and a part of the board) in the main hand's ranking
    showdown = None
    if dealer and ranking != "starting_hand" and draw(st.integers(0, 3)):
        ks = [k for k in range(board + 1) if dealer + k in SIZES[ranking]]
        if ks:
            k = draw(st.sampled_from(ks))
            hands["dh"] = {"cards": ["dealer", *_seat(k, board)], "ranking": ranking}
            showdown = {"player": "h0", "dealer": "dh"}
            if draw(st.booleans()):
                showdown["qualifier"] = draw(_hand_spec(ranking))
                if draw(st.booleans()):
                    showdown["unqualified_tie"] = draw(st.sampled_from(("no_qualify", "tie")))
            game["showdown"] = showdown
    if showdown is None and dealer and draw(st.integers(0, 2)) == 0:
        # a dealer hand that no showdown reads: a paytable may still pay it
        ks = [(rk, k) for rk in ("poker", "three_card") for k in range(board + 1)
              if dealer + k in SIZES[rk]]
        if ks:
            rk, k = draw(st.sampled_from(ks))
            hands["dx"] = {"cards": ["dealer", *_seat(k, board)], "ranking": rk}

    # lines: a category split by rank, a line of whole categories, lines of starting hands
    rankings = {h["ranking"] for h in hands.values()}
    lines: dict = {}
    split: dict[str, list[str]] = {}
    cats_used = sorted(set().union(*(CATS[k] for k in rankings)))
    for cat in draw(st.lists(st.sampled_from(cats_used), max_size=2, unique=True)) if cats_used \
            else []:
        names = []
        for j, (lo, hi) in enumerate(draw(_ranks_partition())):
            name = f"{cat}_{j}"
            lines[name] = {"category": cat, "ranks": _rank_text(lo, hi, draw)}
            names.append(name)
        split[cat] = names
    groups: dict[str, tuple[str, ...]] = {}
    for rk in sorted(rankings - {"starting_hand"}):
        if draw(st.integers(0, 2)) == 0:
            free = [c for c in CATS[rk] if c not in split]
            if len(free) >= 2:
                group = draw(st.lists(st.sampled_from(free), min_size=2, max_size=4, unique=True))
                name = f"group_{rk}"
                lines[name] = {"categories": group}
                groups[name] = tuple(group)
    starting_hands = [n for n, h in hands.items() if h["ranking"] == "starting_hand"]
    starting_lines: list[str] = []
    if starting_hands:
        ranges = draw(st.lists(st.sampled_from(STARTING_LINES), min_size=1, max_size=4,
                               unique=True))
        if dealer == 2 and not cards.get("dealer_up") and (streets or dealt_cost(cards) <= limit) \
                and draw(st.booleans()):
            lines["vs_dealer"] = {"hands": ranges[0], "dealer_hands": "AA"}
            starting_lines.append("vs_dealer")
        taken: set[str] = set()
        for j, rg in enumerate(ranges):
            # a later line pays a hand no earlier line takes: keep the ranges apart
            if rg in taken:
                continue
            lines[f"sh_{j}"] = {"hands": rg}
            starting_lines.append(f"sh_{j}")
            taken.add(rg)
    if lines:
        game["lines"] = lines

    # decisions
    n_points = draw(st.integers(1, 3))
    street_at = sorted(draw(st.lists(st.integers(0, len(streets)), min_size=n_points,
                                     max_size=n_points)))
    point_names = [f"p{i}" for i in range(n_points)]
    deal_mains = ["base"] + [f"main{i}" for i in range(draw(st.integers(0, 2)))]
    pullable = deal_mains[1:]
    action_bets: list[str] = []
    decisions = []
    folded_before = False
    pulled: set[str] = set()
    for i, name in enumerate(point_names):
        actions: list[dict] = []
        kinds = draw(st.lists(st.sampled_from(("fold", "bet", "bet", "check", "pull", "jump")),
                              min_size=2, max_size=4))
        for j, kind in enumerate(kinds):
            a: dict = {"name": f"a{j}"}
            if kind == "fold" and not any(x.get("fold") for x in actions):
                a["fold"] = True
            elif kind == "bet":
                # a bet an earlier point places, placed again here (Ultimate Texas Hold'em's
                # Play, where the earlier placing ends the decisions; or raised twice, the
                # stakes adding up)
                again = [b for b in action_bets if b != f"act{i}"]
                bet = draw(st.sampled_from(again)) if again and draw(st.booleans()) \
                    else f"act{i}"
                if bet not in action_bets:
                    action_bets.append(bet)
                a["bet"] = bet
                if draw(st.booleans()):
                    a["times"] = draw(st.sampled_from((1, 2, 3, 4, 100)))
                if draw(st.integers(0, 2)) == 0:
                    a["next"] = "showdown"
            elif kind == "pull" and not folded_before and [b for b in pullable if b not in pulled]:
                b = draw(st.sampled_from([b for b in pullable if b not in pulled]))
                a["pull"] = b
                pulled.add(b)
            elif kind == "jump" and i + 2 < n_points:
                a["next"] = draw(st.sampled_from(point_names[i + 2:] + ["showdown"]))
            actions.append(a)
        if not any(x.get("bet") or x.get("pull") or x.get("fold") for x in actions):
            actions[0] = {"name": "a0", "fold": True}
        if i + 1 < n_points and not any(not x.get("fold") and "next" not in x for x in actions):
            actions.append({"name": f"a{len(actions)}"})  # goes on to the next point
        folded_before = folded_before or any(x.get("fold") for x in actions)
        point: dict = {"name": name, "actions": actions}
        if street_at[i] or draw(st.booleans()):
            point["street"] = street_at[i]
        decisions.append(point)
    action_bets = [b for b in action_bets if any(a.get("bet") == b for p in decisions
                                                 for a in p["actions"])]
    game["decisions"] = decisions

    # paytables and bets
    paytables: dict = {}
    pays: dict = {}
    used_starting: set[str] = set()

    def new_paytable() -> str:
        """A new paytable, or (one time in three, or when every hand is taken) one that
        another bet settles on too."""
        # a hand of the dealer's hidden cards: the exact solver deals them out (so only where
        # that stays within the limit), or, in a game with streets, counts no such paytable
        # and the game has no optimal strategy
        hidden_ok = bool(streets) or dealt_cost(cards) <= limit
        choices = [h for h in hands if h not in used_starting
                   and (hidden_ok or not _reads_hidden(cards, hands[h]))]
        if paytables and (not choices or draw(st.integers(0, 2)) == 0):
            return draw(st.sampled_from(sorted(paytables)))
        # a dealer's hand (dh, dx, or the player's and the dealer's cards) now and then
        own = [h for h in choices if not h.startswith("d")]
        hand = draw(st.sampled_from(own if own and draw(st.integers(0, 5)) else choices))
        rk = hands[hand]["ranking"]
        name = f"pt{len(paytables)}"
        spec: dict = {"hand": hand}
        if rk == "starting_hand":
            used_starting.add(hand)
            spec["lines"] = list(starting_lines)
        else:
            cats = list(reversed(CATS[rk]))
            listed: list[str] = []
            for c in cats:
                if c in split and draw(st.booleans()):
                    listed += [n for n in split[c] if draw(st.integers(0, 3))]
                elif not any(c in g for g in groups.values() if set(g) <= set(CATS[rk])):
                    if draw(st.booleans()):
                        listed.append(c)
            for g, cs in groups.items():
                # a category is on one line: a group shares none with a group listed already
                if set(cs) <= set(CATS[rk]) and draw(st.booleans()) and not any(
                        set(cs) & set(groups.get(x, ())) for x in listed):
                    listed = [x for x in listed if x not in cs]
                    listed.append(g)
            if not listed:
                listed = [cats[0]]
            spec["lines"] = listed
        if draw(st.booleans()):
            spec["otherwise"] = draw(st.sampled_from(("lose", "push")))
        naming = draw(st.sampled_from(("none", "unlisted", "event_names")))
        if naming == "unlisted":
            spec["unlisted"] = draw(st.sampled_from(("other", "named")))
        elif naming == "event_names":
            spec["event_names"] = draw(st.sampled_from(("line", "hand")))
        if draw(st.integers(0, 3)) == 0:
            spec["pays"] = draw(st.sampled_from(("to_one", "for_one")))
        paytables[name] = spec
        pays[name] = {ln: _pay_number(draw, ratio, big_pays) for ln in spec["lines"]}
        return name

    bets: dict = {}

    def settle(bet: dict, allow_requires: bool) -> None:
        """How a bet settles: against the dealer, on a paytable, or both."""
        how = draw(st.sampled_from(("showdown", "paytable", "both"))) if showdown else "paytable"
        if how in ("paytable", "both"):
            bet["paytable"] = new_paytable()
        if how in ("showdown", "both"):
            sd = {o: _pay(draw, how == "both", ratio) for o in ("win", "tie", "lose")}
            if "qualifier" in showdown and draw(st.integers(0, 3)):
                sd = {"no_qualify": _pay(draw, how == "both", ratio), **sd}
            bet["showdown"] = sd
        elif allow_requires and draw(st.integers(0, 2)) == 0:
            bet["requires"] = draw(st.sampled_from(("stay", "beat_dealer") if showdown
                                                   else ("stay",)))
        if draw(st.integers(0, 3)) == 0:
            bet["bonus"] = new_paytable()
            if draw(st.booleans()):
                bet["bonus_requires"] = "stay"
        if draw(st.integers(0, 3)) == 0:
            bet["fold"] = draw(st.sampled_from(("lose", "settle")))
        if (bet["placed"] == "deal" and "showdown" not in bet and "requires" not in bet
                and draw(st.integers(0, 3)) == 0):
            bet["fold_event"] = draw(st.sampled_from(("fold", "named")))

    for b in deal_mains:
        bet = {"placed": "deal"}
        settle(bet, allow_requires=True)
        bets[b] = bet
    for b in action_bets:
        bet = {"placed": "action"}
        settle(bet, allow_requires=True)
        bets[b] = bet
    sides = [f"side{i}" for i in range(draw(st.integers(0, 2)))]
    for b in sides:
        bet = {"placed": "deal", "side": True}
        bet["paytable"] = new_paytable()
        if draw(st.integers(0, 2)) == 0:
            bet["fold"] = "settle"
        r = draw(st.integers(0, 3))
        if r == 0:
            bet["fold_event"] = "named"
        elif r == 1:
            bet["requires"] = draw(st.sampled_from(("stay", "beat_dealer") if showdown
                                                   else ("stay",)))
        bets[b] = bet
    game["bets"] = bets
    if paytables:
        game["paytables"] = paytables

    # event words renamed
    if draw(st.integers(0, 3)) == 0:
        words = draw(st.lists(st.sampled_from(("fold", "win", "tie", "lose", "no_qualify", "beat",
                                               "no_beat", "other")), min_size=1, max_size=3,
                              unique=True))
        game["events"] = {w: f"ev_{w}" for w in words}

    # a progressive meter on a side bet that settles on its paytable alone
    meter_bet = None
    for b in sides:
        bet = bets[b]
        spec = paytables[bet["paytable"]]
        if ("requires" not in bet and "bonus" not in bet and spec.get("otherwise", "lose") == "lose"
                and spec.get("unlisted", "other") == "other"
                and spec.get("event_names", "line") == "line"
                and hands[spec["hand"]]["ranking"] != "starting_hand"
                and _unpaid(spec, split, groups, hands) and draw(st.booleans())):
            meter_bet = b
            game["meter"] = {"bet": b, "event": game.get("events", {}).get("other", "other")}
            break

    # options: what a config may set in [rules]
    options: dict = {}
    rules: dict = {}
    if draw(st.integers(0, 2)) == 0:
        target = draw(st.sampled_from(list(paytables) or [None]))
        if target is not None and not (meter_bet and bets[meter_bet]["paytable"] == target):
            options["push_below"] = {"description": "a hand on no line pushes",
                                     "values": [False, True], "default": False,
                                     "sets": {f"paytables.{target}.otherwise":
                                              {"true": "push"}}}
            if draw(st.booleans()):
                rules["push_below"] = draw(st.booleans())
    if showdown is not None and "qualifier" in showdown and draw(st.booleans()):
        cat = draw(st.sampled_from(("high_card", "pair", "three_of_a_kind")))
        rank = draw(st.sampled_from(("Q", "A") if cat == "high_card" else tuple("2345TJQKA")))
        if ranking == "three_card" and cat == "high_card":
            rank = "Q"
        options["qualifier"] = {"description": "the dealer's weakest qualifying hand",
                                "type": "hand", "default": {"hand": cat, "rank": rank},
                                "sets": ["showdown.qualifier"]}
        if draw(st.booleans()):
            rules["qualifier"] = {"hand": "pair", "rank": draw(st.sampled_from(tuple(RANKS)))}
    if sides and draw(st.integers(0, 2)) == 0:
        b = sides[0]
        options["side_settles"] = {"description": "the side bet settles after a fold",
                                   "values": ["lose", "settle"], "default": "lose",
                                   "sets": {f"bets.{b}.fold": {"settle": "settle",
                                                               "lose": "lose"}}}
        if draw(st.booleans()):
            rules["side_settles"] = draw(st.sampled_from(("lose", "settle")))
    if options:
        game["options"] = options

    # rule strategies
    player_three = any(h["ranking"] == "three_card" and h["cards"][0] == "player"
                       for h in hands.values())
    strategies: dict = {}
    for s in range(draw(st.integers(1, 2))):
        strat: dict = {}
        if draw(st.booleans()):
            strat["description"] = "a drawn rule strategy"
        for point in decisions:
            street = point.get("street", 0)
            acts = [a["name"] for a in point["actions"]]
            rules_ = []
            for _ in range(draw(st.integers(0, 2))):
                rule = dict(draw(st.lists(_condition(game, street, player_three), min_size=1,
                                          max_size=2, unique_by=lambda c: c[0])))
                rule["action"] = draw(st.sampled_from(acts))
                rules_.append(rule)
            rules_.append({"action": draw(st.sampled_from(acts))})
            strat[point["name"]] = rules_
        strategies[f"rule-{s}"] = strat
    if solvable(game) and draw(st.integers(0, 3)) == 0:
        strategies["best"] = {"description": "the exact solver's", "table": "optimal"}
    game["strategies"] = strategies
    # the name: one per description (a name already taken must be the same description)
    digest = hashlib.sha256(json.dumps(game, sort_keys=True).encode()).hexdigest()[:12]
    game["name"] = f"fz_{digest}"

    # the numbers
    base_stake = draw(st.sampled_from((2, 4, 10)))
    stakes = {"base": base_stake}
    for b in sides:
        stakes[b] = draw(st.sampled_from((0, 2, 6)))
    doc: dict = {"name": game["name"]}
    if draw(st.booleans()):
        doc["description"] = "a drawn game"
    doc["default_strategy"] = draw(st.sampled_from(("optimal", "rule-0"))) if solvable(game) \
        else "rule-0"
    doc["stakes"] = stakes
    if pays:
        doc["paytables"] = pays
    if rules:
        doc["rules"] = rules
    if meter_bet and (stakes[meter_bet] or draw(st.booleans())):
        doc["jackpot"] = {"contribution_bp": draw(st.sampled_from((0, 100, 10000))),
                          "reset": draw(st.sampled_from((0, 1000)))}
    doc["game"] = game
    return doc


def _unpaid(spec: dict, split: dict, groups: dict, hands: dict) -> bool:
    """Whether some hand is on none of a paytable's lines (a meter's event)."""
    listed = set(spec["lines"])
    covered = {c for c in listed if c in POKER}
    covered |= {c for g, cs in groups.items() if g in listed for c in cs}
    covered |= {c for c, names in split.items() if set(names) <= listed}
    return not set(CATS[hands[spec["hand"]]["ranking"]]) <= covered


def _reads_hidden(cards: dict, hand: dict) -> bool:
    """Whether a hand holds a dealer's face-down card."""
    return "dealer" in hand["cards"] and cards.get("dealer", 0) > cards.get("dealer_up", 0)


def solvable(game: dict) -> bool:
    """Whether the exact solver counts the game (its ``optimal`` strategy exists): the dealer's
    showdown hand is exactly his 3 or 5 cards, and a paytable that reads his hidden cards (a
    hand holding one, or a starting-hand line on his cards too) is in a game without streets
    whose hidden cards the solver may deal out
    (:func:`gpusim.games.described.layout.hidden_cost`)."""
    from gpusim.games.described.layout import DEALT_HIDDEN_LIMIT, hidden_cost

    cards, hands = game["cards"], game["hands"]
    if "showdown" in game:
        dh = hands[game["showdown"]["dealer"]]
        if dh["cards"] != ["dealer"] or cards.get("dealer", 0) not in (3, 5):
            return False
    read = {p["hand"] for p in game.get("paytables", {}).values()}
    listed = {ln for p in game.get("paytables", {}).values() for ln in p["lines"]}
    on_dealer = any("dealer_hands" in spec for name, spec in game.get("lines", {}).items()
                    if name in listed)
    hidden = cards.get("dealer", 0) - cards.get("dealer_up", 0)
    if not (hidden and (on_dealer or any(_reads_hidden(cards, hands[h]) for h in read))):
        return True
    if cards.get("streets"):
        return False
    return hidden_cost(cards["player"], cards.get("dealer_up", 0), hidden) <= DEALT_HIDDEN_LIMIT


# --- invalid descriptions ------------------------------------------------------------------


def _tables(doc, prefix=""):
    """(key path, table) of every table inside ``doc`` (arrays of tables by index)."""
    for k, v in doc.items():
        path = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            yield path, v
            yield from _tables(v, path)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, dict):
                    yield f"{path}[{i}]", x
                    yield from _tables(x, f"{path}[{i}]")


def _at(doc: dict, path: str):
    cur = doc
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        cur = cur[int(part[1:-1])] if part.startswith("[") else cur[part]
    return cur


_FREE_TABLES = re.compile(r"^(paytables|game\.(hands|bets|paytables|lines|strategies|options))$")
"""Tables whose keys are names the designer chooses: a new key there is a new entry, not an
unknown key."""


@st.composite
def mutations(draw, doc: dict) -> tuple[dict, str, str]:
    """(an invalid copy of ``doc``, the key path its refusal must name, what was done)."""
    out = copy.deepcopy(doc)
    g = out["game"]
    kinds = ["unknown_key", "missing", "range", "type", "reference", "deep"]
    kind = draw(st.sampled_from(kinds))
    if kind == "deep":
        return _deep(draw, out)
    if kind == "unknown_key":
        tables = [(p, t) for p, t in _tables(out) if not _FREE_TABLES.match(p)
                  and not re.match(r"^(game\.strategies\.[^.]+|game\.options\.[^.]+\.sets"
                                   r"|game\.options\.[^.]+\.sets\..*|rules|stakes)$", p)
                  and not re.match(r"^game\.strategies\.[^.]+\.[^.]+\[\d+\]\.", p)]
        path, table = draw(st.sampled_from(tables))
        table["bogus_key"] = 1
        return out, f"{path}.bogus_key", "an unknown key"
    if kind == "missing":
        choices = ["game.cards.player", "game.name", "game.decisions", "game.bets",
                   "game.hands", "stakes.base"]
        choices += [f"game.hands.{h}.ranking" for h in g["hands"]]
        choices += [f"game.hands.{h}.cards" for h in g["hands"]]
        choices += [f"game.bets.{b}.placed" for b in g["bets"]]
        choices += [f"game.decisions[{i}].actions" for i in range(len(g["decisions"]))]
        choices += [f"game.decisions[{i}].name" for i in range(len(g["decisions"]))]
        choices += [f"game.paytables.{p}.hand" for p in g.get("paytables", {})]
        for p, lines in out.get("paytables", {}).items():
            choices += [f"paytables.{p}.{ln}" for ln in lines]
        if "showdown" in g:
            choices += ["game.showdown.player", "game.showdown.dealer"]
        path = draw(st.sampled_from(choices))
        parent, _, key = path.rpartition(".")
        del _at(out, parent)[key]
        # a missing name is named by the table that lacks it, a missing top-level table by its
        # own path; a removed required table or key is named by its path
        return out, path, "a required key removed"
    if kind == "range":
        choice = draw(st.sampled_from(("player", "dealer_up", "street", "times", "stake",
                                       "pay", "total")))
        if choice == "player":
            g["cards"]["player"] = draw(st.sampled_from((0, 8, -1)))
            return out, "game.cards.player", "out of range"
        if choice == "dealer_up":
            g["cards"]["dealer_up"] = g["cards"].get("dealer", 0) + 1
            return out, "game.cards.dealer_up", "out of range"
        if choice == "street":
            g["cards"]["streets"] = [*g["cards"].get("streets", []), draw(
                st.sampled_from((0, 6)))]
            return out, "game.cards.streets", "out of range"
        if choice == "times":
            spots = [(i, j) for i, p in enumerate(g["decisions"])
                     for j, a in enumerate(p["actions"]) if "bet" in a]
            if spots:
                i, j = draw(st.sampled_from(spots))
                g["decisions"][i]["actions"][j]["times"] = draw(st.sampled_from((0, 101)))
                return out, f"game.decisions[{i}].actions[{j}].times", "out of range"
        if choice == "pay" and out.get("paytables"):
            p = draw(st.sampled_from(sorted(out["paytables"])))
            ln = draw(st.sampled_from(sorted(out["paytables"][p])))
            out["paytables"][p][ln] = draw(st.sampled_from((-1, 1_000_001)))
            return out, f"paytables.{p}.{ln}", "out of range"
        if choice == "total":
            g["cards"]["streets"] = [*g["cards"].get("streets", []), 5, 5, 5]
            return out, "game.cards", "out of range"
        out["stakes"]["base"] = draw(st.sampled_from((0, -2, 2**31)))
        return out, "stakes.base", "out of range"
    if kind == "type":
        choice = draw(st.sampled_from(("player", "ranking", "placed", "actions", "hands",
                                       "cards", "name")))
        if choice == "player":
            g["cards"]["player"] = draw(st.sampled_from(("3", 2.5, True, [3])))
            return out, "game.cards.player", "a wrong type"
        if choice == "ranking":
            h = draw(st.sampled_from(sorted(g["hands"])))
            g["hands"][h]["ranking"] = draw(st.sampled_from((5, "three-card", ["poker"])))
            return out, f"game.hands.{h}.ranking", "a wrong type"
        if choice == "placed":
            b = draw(st.sampled_from(sorted(g["bets"])))
            g["bets"][b]["placed"] = draw(st.sampled_from((1, "later", True)))
            return out, f"game.bets.{b}.placed", "a wrong type"
        if choice == "actions":
            i = draw(st.integers(0, len(g["decisions"]) - 1))
            g["decisions"][i]["actions"] = draw(st.sampled_from(("fold", {"name": "x"}, 2)))
            return out, f"game.decisions[{i}].actions", "a wrong type"
        if choice == "hands":
            h = draw(st.sampled_from(sorted(g["hands"])))
            g["hands"][h]["cards"] = draw(st.sampled_from(("player", ["seat"], [], [1])))
            return out, f"game.hands.{h}.cards", "a wrong type"
        if choice == "cards":
            g["cards"] = draw(st.sampled_from(([3], "3", 3)))
            return out, "game.cards", "a wrong type"
        g["name"] = draw(st.sampled_from(("Fuzz Game", 7, "1abc")))
        return out, "game.name", "a wrong type"
    # a reference to what is not there
    choice = draw(st.sampled_from(("showdown", "bet", "paytable_hand", "bet_paytable", "next",
                                   "action", "strategy")))
    if choice == "showdown" and "showdown" in g:
        key = draw(st.sampled_from(("player", "dealer")))
        g["showdown"][key] = "no_such_hand"
        return out, f"game.showdown.{key}", "a missing hand"
    spots = [(i, j) for i, p in enumerate(g["decisions"]) for j, a in enumerate(p["actions"])]
    if choice == "bet":
        i, j = draw(st.sampled_from(spots))
        a = g["decisions"][i]["actions"][j]
        a.pop("fold", None)
        a.pop("pull", None)
        a["bet"] = "no_such_bet"
        return out, f"game.decisions[{i}].actions[{j}].bet", "a missing bet"
    if choice == "paytable_hand" and g.get("paytables"):
        p = draw(st.sampled_from(sorted(g["paytables"])))
        g["paytables"][p]["hand"] = "no_such_hand"
        return out, f"game.paytables.{p}.hand", "a missing hand"
    if choice == "bet_paytable":
        b = draw(st.sampled_from(sorted(g["bets"])))
        g["bets"][b]["paytable"] = "no_such_paytable"
        return out, f"game.bets.{b}.paytable", "a missing paytable"
    if choice == "next":
        i, j = draw(st.sampled_from(spots))
        a = g["decisions"][i]["actions"][j]
        a.pop("fold", None)
        a["next"] = "no_such_point"
        return out, f"game.decisions[{i}].actions[{j}].next", "a missing point"
    ruled = [(s, d["name"]) for s in sorted(g["strategies"]) for d in g["decisions"]
             if d["name"] in g["strategies"][s]]  # a table strategy names no point
    if choice == "action" and ruled:
        s, p = draw(st.sampled_from(ruled))
        rules = g["strategies"][s][p]
        k = draw(st.integers(0, len(rules) - 1))
        rules[k]["action"] = "no_such_action"
        return out, f"game.strategies.{s}.{p}[{k}].action", "a missing action"
    out["default_strategy"] = "no-such-strategy"
    return out, "default_strategy", "a missing strategy"


def _deep(draw, out: dict) -> tuple[dict, str, str]:
    """A mistake deeper in the description: a value of the wrong type or out of range where
    the designer writes a bet, an action, a paytable, a line, a rule or a condition."""
    g = out["game"]
    spots = []
    for i, p in enumerate(g["decisions"]):
        w = f"game.decisions[{i}]"
        spots += [(p, "street", w, v) for v in (1.5, "1", -1, len(g["cards"].get("streets", []))
                                                 + 1)]
        for j, a in enumerate(p["actions"]):
            wa = f"{w}.actions[{j}]"
            spots += [(a, "fold", wa, v) for v in ("yes", 1)]
            spots += [(a, "name", wa, v) for v in ("Fold", 3, "")]
            if "bet" in a:
                spots += [(a, "times", wa, v) for v in ("2", 2.0, True)]
    for b, bet in g["bets"].items():
        w = f"game.bets.{b}"
        spots += [(bet, "side", w, "no"), (bet, "fold", w, "keep"), (bet, "fold_event", w, 1)]
        if "showdown" in bet:
            spots += [(bet["showdown"], "win", f"{w}.showdown", v)
                      for v in ("3:0", "1", 2, "even", "1:1:1", "-1:1")]
            spots += [(bet, "showdown", w, v) for v in ("1:1", ["win"])]
        if "paytable" in bet:
            spots += [(bet, "requires", w, v) for v in ("always", True)]
    for t, pt in g.get("paytables", {}).items():
        w = f"game.paytables.{t}"
        spots += [(pt, "lines", w, v) for v in ("pair", [], [1], ["no_such_line"])]
        spots += [(pt, "otherwise", w, "win"), (pt, "pays", w, "for_two"),
                  (pt, "unlisted", w, False)]
    for n, line in g.get("lines", {}).items():
        w = f"game.lines.{n}"
        if "ranks" in line:
            spots += [(line, "ranks", w, v) for v in ("1-A", "A-2", "Z", 5)]
        if "hands" in line:
            spots += [(line, "hands", w, v) for v in ("AAA", "KA", "", 7)]
    if "showdown" in g:
        spots += [(g["showdown"], "qualifier", "game.showdown", v)
                  for v in ("Queen", 12, "pair of 1s", "K-Q-Q", "4-6")]
    for s, strat in g["strategies"].items():
        for pname, rules in strat.items():
            if not isinstance(rules, list):
                continue
            for k, rule in enumerate(rules[:-1]):
                w = f"game.strategies.{s}.{pname}[{k}]"
                for c in rule:
                    if c != "action":
                        spots += [(rule, c, w, v) for v in ("nonsense", 99, [0], {"x": 1})]
            w = f"game.strategies.{s}.{pname}[{len(rules) - 1}]"
            spots += [(rules[-1], "at_leest", w, "pair")]
    for o, opt in g.get("options", {}).items():
        if "values" in opt:
            spots += [(opt, "default", f"game.options.{o}", "maybe")]
    if "rules" in out:
        spots += [(out["rules"], "no_such_option", "rules", True)]
    table, key, where, value = draw(st.sampled_from(spots))
    table[key] = value
    return out, f"{where}.{key}", "a wrong value deeper in"
