"""The hold'em shape engine: exact solvers and table strategies keyed by the shape of a game's
decisions, not by its name (the games themselves are described in TOML or by their specs).

- :mod:`.play_once`: hole cards, flop, turn and river together; an Ante and a Blind against the
  dealer and one Play placed once, at a multiple that shrinks street by street, or a fold on
  the river (Ultimate Texas Hold'em and its variants). Its counts are
  :mod:`.play_once_counts`, its table strategy :mod:`.play_once_tables`, and
  :mod:`.play_once_described` serves a described game of the shape.
"""
