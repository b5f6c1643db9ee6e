"""Games described in TOML: the engine that turns a config's ``[game]`` table into a game.

A description states the cards, the hands and their rankings, the dealer's qualifier, the
decision tree, the bets and how each settles, the paytables' lines and the rule strategies,
in a closed vocabulary (:mod:`.description`, checked by :mod:`.sections`; the designer's guide
is docs/describe-a-game.md). :mod:`.layout` derives the joint outcome code and every bet's
events from it, :mod:`.engine` settles rounds and runs rule strategies in JAX, and
:mod:`.builder` makes the game's :class:`~gpusim.games.spec.GameSpec`, so every command treats
a described game as any other. No game has Python of its own here.
"""

from gpusim.games.described.builder import DescribedRules, spec_of
from gpusim.games.described.description import Description
from gpusim.games.described.sections import parse_description

__all__ = ["DescribedRules", "Description", "parse_description", "spec_of"]
