"""The game registry: every game's :class:`GameSpec` by name, shipped and plugin.

:data:`SPECS` is discovered on first use: the games the shipped configs describe (a ``[game]``
table), then each distribution's entry in the ``gpusim.games`` entry-point group
(:data:`ENTRY_POINT_GROUP`). :func:`spec_for` finds the spec of a config's rules or of a game's
name. (The strategies of every game are looked up in
:mod:`gpusim.games.strategy_registry`.)
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping

from gpusim.games.spec import GameSpec, import_path_problems

__all__ = ["ENTRY_POINT_GROUP", "SPECS", "register_description", "same_description", "spec_for"]

ENTRY_POINT_GROUP = "gpusim.games"
"""Another installed distribution adds a game by naming, in this entry-point group, its game
package (which has a ``SPEC``) or the :class:`GameSpec` itself, e.g. in its pyproject.toml::

    [project.entry-points."gpusim.games"]
    my_game = "my_package.my_game"
"""

def _as_spec(obj, where: str) -> GameSpec:
    spec = getattr(obj, "SPEC", obj)
    if not isinstance(spec, GameSpec):
        raise TypeError(f"{where}: expected a GameSpec or a package with SPEC, got {obj!r}")
    return spec


class _Found(dict):
    """The registry's games by name: a built :class:`GameSpec`, or a shipped description not
    built yet (:class:`_Pending`); ``plugins`` says whether the entry points were read into it."""

    plugins = False


class _Pending:
    """A shipped config's ``[game]`` table, built into its spec when the game is first asked
    for: a run uses one game, and building every shipped one cost a simulation's start-up up to
    a quarter of a second."""

    def __init__(self, path, game: dict) -> None:
        self.path, self.game = path, game

    def build(self) -> GameSpec:
        from gpusim.rules import ConfigReader

        return _described_spec(ConfigReader(str(self.path)), self.game)


def _add_plugins(found: _Found) -> None:
    """Every ``gpusim.games`` entry point's game, after the shipped ones. A plugin that fails
    to load, names an import path that would not load (:func:`import_path_problems`: checked
    without importing, so reading the registry still imports no JAX), or reuses a name, is
    reported in one line on stderr and left out: one broken distribution must not stop every
    command."""
    from importlib.metadata import entry_points

    found.plugins = True
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        where = f"game plugin {ep.name!r} ({ep.value})"
        try:
            spec = _as_spec(ep.load(), where)
            # a typo in an import path fails here, naming the path, not at the game's first use
            problems = import_path_problems(spec)
            if problems:
                raise ValueError("; ".join(problems))
        except Exception as exc:  # noqa: BLE001 - any import error of a third-party package
            print(f"gpusim: warning: {where}: not loaded: {' '.join(str(exc).split())}",
                  file=sys.stderr)
            continue
        if spec.name in found:
            print(f"gpusim: warning: {where}: game name {spec.name!r} is taken; not loaded",
                  file=sys.stderr)
            continue
        found[spec.name] = spec


def _shipped_descriptions() -> _Found:
    """The games described in the shipped configs (a ``[game]`` table), by name, not built yet.
    One that does not read is reported in one line on stderr when it is built and left out,
    like a broken plugin; loading that config then names its mistake."""
    import tomllib
    from pathlib import Path

    found = _Found()
    here = Path(__file__).resolve().parents[1]
    for folder in (here / "configs", here.parent / "configs"):
        for path in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
            text = path.read_text(encoding="utf-8")
            if "[game]" not in text:
                continue
            try:
                game = tomllib.loads(text).get("game")
            except tomllib.TOMLDecodeError as exc:
                print(f"gpusim: warning: {path.name}: game not loaded: "
                      f"{' '.join(str(exc).split())}", file=sys.stderr)
                continue
            name = game.get("name") if isinstance(game, dict) else None
            if isinstance(name, str) and name not in found:
                found[name] = _Pending(path, game)
    return found


def _described_spec(r, game: dict) -> GameSpec:
    from gpusim.games.described.builder import spec_of
    from gpusim.games.described.sections import parse_description

    spec = spec_of(parse_description(r, game))
    for name, _, table in spec.game_def.table_names:
        if table not in spec.table_strategies:
            allowed = ", ".join(map(repr, spec.table_strategies)) or \
                f"none (the game has no exact solver{spec.why_missing()})"
            raise r.fail(f"game.strategies.{name}.table",
                         f"value {table!r} is not allowed; allowed: {allowed}")
    return spec


def same_description(a, b) -> bool:
    """Whether two descriptions (:class:`~gpusim.games.described.Description`) are one game,
    read as the config hash reads them (:func:`gpusim.rules.rules_hash`: the ``[game]`` table's
    JSON with its keys sorted; arrays keep their order). A TOML formatter that sorts keys must
    not turn a shipped game into "another game" under its own name, nor give one game two
    identities."""
    if not (a.raw and b.raw):  # built in code, not read from a [game] table
        return a == b
    return _canonical(a.raw) == _canonical(b.raw) and a.chosen == b.chosen


def _canonical(raw: str) -> str:
    import json

    return json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":"))


def register_description(r, game: dict) -> GameSpec:
    """The spec of the game a config's ``[game]`` table describes, registered under its name
    (the same description again, whatever the order of its keys, is the same game and gets the
    spec registered first; another one under a taken name is a ConfigError naming
    ``game.name``)."""
    spec = _described_spec(r, game)
    known = SPECS.get(spec.name)
    if known is None:
        SPECS._all()[spec.name] = spec  # type: ignore[attr-defined]
    elif known.game_def is None or not same_description(known.game_def, spec.game_def):
        raise r.fail("game.name", f"value {spec.name!r} is taken by another game; choose "
                                  "another name")
    return SPECS[spec.name]


class _Specs(Mapping):
    """The game registry, discovered on first use and each game built when first asked for:
    the shipped configs' games are named by reading their files (milliseconds), the plugins'
    entry points are read only when a name is not a shipped game's or every game is listed (a
    scan of every installed distribution), and a game's spec is built on first use."""

    def __init__(self) -> None:
        self._specs: _Found | None = None

    def _all(self) -> _Found:
        """The games found so far (a shipped one may still be a :class:`_Pending`); a built
        spec may be stored into it."""
        if self._specs is None:
            self._specs = _shipped_descriptions()
        return self._specs

    def _every(self) -> _Found:
        found = self._all()
        if not found.plugins:
            _add_plugins(found)
        return found

    def __getitem__(self, name: str) -> GameSpec:
        found = self._all()
        if name not in found:
            found = self._every()
        value = found[name]
        if isinstance(value, _Pending):
            from gpusim.rules import ConfigError

            try:
                value = found[name] = value.build()
            except ConfigError as exc:
                del found[name]
                print(f"gpusim: warning: {value.path.name}: game not loaded: "
                      f"{' '.join(str(exc).split())}", file=sys.stderr)
                raise KeyError(name) from None
        return value

    def __contains__(self, name: object) -> bool:
        return name in self._all() or name in self._every()

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._every()))

    def __len__(self) -> int:
        return len(self._every())

    def values(self):
        return [spec for spec in (self.get(n) for n in self) if spec is not None]

    def items(self):
        return [(n, spec) for n in self if (spec := self.get(n)) is not None]

    def reload(self) -> None:
        """Discover again (after installing a plugin in a running process)."""
        self._specs = None


SPECS: Mapping[str, GameSpec] = _Specs()
"""Every game, by name: the shipped configs' games (by config file name), then the plugins by
name."""

def spec_for(rules_or_game) -> GameSpec:
    """The spec of a game's rules (from :func:`gpusim.config.load_config`) or of its name."""
    if isinstance(rules_or_game, str):
        if rules_or_game not in SPECS:
            raise ValueError(f"game {rules_or_game!r}: unknown; allowed: {', '.join(SPECS)}")
        return SPECS[rules_or_game]
    spec = SPECS.get(getattr(rules_or_game, "game", None))
    game_def = getattr(rules_or_game, "game_def", None)
    if spec is None and game_def is not None:
        # a described game's rules carry their description: a process that did not read the
        # config (a Ray worker, unpickled rules) registers the game from them
        from gpusim.games.described.builder import spec_of

        spec = SPECS._all().setdefault(game_def.name, spec_of(game_def))  # type: ignore[attr-defined]
    if spec is None or not isinstance(rules_or_game, spec.rules_type):
        raise TypeError(
            f"rules: expected rules from gpusim.config.load_config, got {rules_or_game!r}"
        )
    return spec
