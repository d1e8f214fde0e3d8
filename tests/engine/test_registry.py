"""Finding games: bundled ids, registered objects and the meeple.games entry points."""

from __future__ import annotations

from importlib import metadata

import pytest

import liars_dice
import meeple
from meeple.engine import registry


def test_a_registered_game_is_found_by_id() -> None:
    assert meeple.get_game("liars-dice") is liars_dice.GAME
    assert "liars-dice" in meeple.available()


def test_a_third_party_game_is_found_through_its_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    class Renamed(liars_dice.LiarsDice):
        info = liars_dice.attrs.evolve(liars_dice.INFO, id="plugin-dice")

    plugin = Renamed()
    ep = metadata.EntryPoint(name="plugin-dice", value="plugin_mod:GAME", group="meeple.games")
    monkeypatch.setattr(registry, "_entry_points", lambda: {"plugin-dice": ep})
    monkeypatch.setattr(metadata.EntryPoint, "load", lambda self: plugin)
    monkeypatch.delitem(registry._registered, "plugin-dice", raising=False)
    assert "plugin-dice" in meeple.available()
    m = meeple.Match.start("plugin-dice", 2, seed=1)
    assert m.game is plugin and meeple.verify(m.to_bytes()).ok
    registry._registered.pop("plugin-dice", None)


def test_a_broken_entry_point_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    ep = metadata.EntryPoint(name="broken", value="no_such_module_xyz:GAME", group="meeple.games")
    monkeypatch.setattr(registry, "_entry_points", lambda: {"broken": ep})
    with pytest.raises(meeple.ConfigError, match="could not be loaded"):
        meeple.get_game("broken")


def test_unknown_ids_list_the_known_ones() -> None:
    with pytest.raises(meeple.UnknownGame, match="liars-dice"):
        meeple.get_game("go")
    with pytest.raises(meeple.UnknownGame):
        meeple.get_game(42)  # type: ignore[arg-type]
