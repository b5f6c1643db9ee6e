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


def _discover() -> dict[str, GameSpec]:
    """The games described in the shipped configs, then every ``gpusim.games`` entry point's.
    A plugin that fails to load, names an import path that would not load
    (:func:`import_path_problems`: checked without importing, so reading the registry still
    imports no JAX), or reuses a name, is reported in one line on stderr and left out: one
    broken distribution must not stop every command."""
    from importlib.metadata import entry_points

    found: dict[str, GameSpec] = {}
    _shipped_descriptions(found)
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
    return found


def _shipped_descriptions(found: dict[str, GameSpec]) -> None:
    """Register the games described in the shipped configs (a ``[game]`` table). One that
    does not read is reported in one line on stderr and left out, like a broken plugin; loading
    that config then names its mistake."""
    import tomllib
    from pathlib import Path

    from gpusim.rules import ConfigError, ConfigReader

    here = Path(__file__).resolve().parents[1]
    for folder in (here / "configs", here.parent / "configs"):
        for path in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
            text = path.read_text(encoding="utf-8")
            if "[game]" not in text:
                continue
            try:
                game = tomllib.loads(text).get("game")
                if isinstance(game, dict) and game.get("name") not in found:
                    spec = _described_spec(ConfigReader(str(path)), game)
                    found[spec.name] = spec
            except (ConfigError, tomllib.TOMLDecodeError) as exc:
                print(f"gpusim: warning: {path.name}: game not loaded: "
                      f"{' '.join(str(exc).split())}", file=sys.stderr)


def _described_spec(r, game: dict) -> GameSpec:
    from gpusim.games.described.builder import spec_of
    from gpusim.games.described.sections import parse_description

    spec = spec_of(parse_description(r, game))
    for name, _, table in spec.game_def.table_names:
        if table not in spec.table_strategies:
            allowed = ", ".join(map(repr, spec.table_strategies)) or "none (no exact solver)"
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
    """The game registry, discovered on first use (reading entry points costs start-up time
    that a command which never asks for a game should not pay)."""

    def __init__(self) -> None:
        self._specs: dict[str, GameSpec] | None = None

    def _all(self) -> dict[str, GameSpec]:
        if self._specs is None:
            self._specs = _discover()
        return self._specs

    def __getitem__(self, name: str) -> GameSpec:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

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
