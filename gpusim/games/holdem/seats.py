"""The deal every hold'em shape shares, read off a description: two cards to the player, two
face down to the dealer, a five-card board in the shape's streets, and a showdown of each
seat's two cards with the whole board, ranked as poker; and the one-line refusal of what a
shape's solver cannot count."""

from __future__ import annotations

from collections.abc import Callable

from gpusim.strategy import StrategyError

__all__ = ["holdem_seats", "shape_refusal"]


def shape_refusal(d, key: str, what: str, solver: str, game: str) -> StrategyError:
    """The one-line refusal of a description, or of a config's numbers, that the hold'em
    ``solver`` (its shape: ``game``'s) cannot count, naming the key. A StrategyError (a
    ValueError): a config of the shape whose numbers it cannot price has no exact ``optimal``,
    and every command says so in one line."""
    return StrategyError(f"game {d.name!r}: {key}: {what}; the hold'em {solver} solver counts "
                         f"{game}'s shape (docs/exact.md, hold'em-shaped descriptions)")


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
