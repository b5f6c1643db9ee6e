"""The deal every hold'em shape shares, read off a description: two cards to the player, two
face down to the dealer, a five-card board in the shape's streets, and a showdown of each
seat's two cards with the whole board, ranked as poker."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["holdem_seats"]


def holdem_seats(d, streets: tuple[int, ...],
                 refusal: Callable[[object, str, str], ValueError]) -> tuple[str, str]:
    """(player hand, dealer hand) of a description dealt as hold'em in ``streets``; else the
    shape's ``refusal(d, key, what)`` (one line naming the key)."""
    if (d.player, d.dealer, d.dealer_up, tuple(d.streets)) != (2, 2, 0, tuple(streets)):
        raise refusal(d, "game.cards", "expected player = 2, dealer = 2 face down, streets = "
                                       f"{list(streets)}")
    if d.showdown is None:
        raise refusal(d, "game.showdown", "missing")
    player, dealer, _ = d.showdown
    cols = d.columns
    if sorted(d.hand(player).columns) != sorted(cols["player"] + cols["board"]) or \
            sorted(d.hand(dealer).columns) != sorted(cols["dealer"] + cols["board"]) or \
            d.hand(player).ranking != "poker" or d.hand(dealer).ranking != "poker":
        raise refusal(d, "game.showdown", "expected the player's and the dealer's two cards "
                                          "each with the whole board, ranked as poker")
    return player, dealer
