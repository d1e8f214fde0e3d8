"""One template for a game object: ``assemble`` binds each part as it is, and refuses what makes no game."""

from __future__ import annotations

import types

import pytest

import liars_dice
import meeple
from meeple.engine import ConfigError, Game, RandomBot, assemble


def _rules_module(**drop: bool) -> types.ModuleType:
    """A rules module of liars-dice's own rule functions (less those named in ``drop``)."""
    rules = types.ModuleType("dice_rules")
    g = liars_dice.GAME
    for name in ("initial_state", "to_act", "auto_command", "legal_commands", "decide", "evolve", "outcome"):
        if name not in drop:
            setattr(rules, name, getattr(g, name))
    return rules


def _dice(**kw: object) -> type[Game[object, meeple.Options]]:
    g = liars_dice.GAME
    args: dict[str, object] = dict(module=__name__, info=meeple.engine.GameInfo(**{
        **{k: getattr(g.info, k) for k in ("title", "rules_version", "min_seats", "max_seats", "variants")},
        "id": "assembled-dice"}), options=g.options_type, state=g.state_type, commands=g.commands, events=g.events,
        view=g.view, redact=g.redact, bots={"random": RandomBot})
    args.update(kw)
    rules = args.pop("rules", _rules_module())
    return assemble("AssembledDice", rules, **args)  # type: ignore[arg-type]


def test_a_game_assembled_from_a_rules_module_plays_like_the_original() -> None:
    rules = _rules_module()
    cls = _dice(rules=rules)
    game = cls()
    assert cls.__name__ == "AssembledDice" and cls.__module__ == __name__
    assert type(game).initial_state is rules.initial_state  # bound as it is: no call in between
    assert game.evolve is rules.evolve
    a = meeple.Match.start(game, seats=3, seed=5)
    b = meeple.Match.start(liars_dice.GAME, seats=3, seed=5)
    for _ in range(6):
        if a.is_over:
            break
        seat = a.to_act[0]
        a.play(seat, a.legal(seat)[0])
        b.play(seat, b.legal(seat)[0])
    assert [r.events for r in a.records] == [r.events for r in b.records]
    assert list(game.bots()) == ["random"]
    game.bots()["other"] = RandomBot  # type: ignore[index]  # each call gives a fresh mapping
    assert list(game.bots()) == ["random"]


def test_a_rules_module_without_a_rule_makes_no_game_object() -> None:
    cls = _dice(rules=_rules_module(decide=True))
    with pytest.raises(TypeError, match="decide"):
        cls()


def test_a_part_of_no_known_name_is_refused() -> None:
    with pytest.raises(ConfigError, match="no part of a game is called veiw"):
        _dice(veiw=liars_dice.GAME.view)
    with pytest.raises(ConfigError, match="a module or a Game subclass"):
        _dice(rules=object())


def test_variants_are_the_declared_ones_and_select_their_options() -> None:
    with pytest.raises(ConfigError, match="not the declared"):
        _dice(variants={"other": {}})
    game = _dice(variants={liars_dice.GAME.info.variants[0]: {"dice": 2}})()
    assert game.variant_options(game.info.variants[0]) == {"dice": 2}
    with pytest.raises(ConfigError, match="assembled-dice has no variant 'nope'"):
        game.variant_options("nope")


def test_the_bundled_games_keep_their_variants() -> None:
    assert meeple.get_game("kings").variant_options("discard") == {"developed_cards": "discard"}
    assert meeple.get_game("mordred").variant_options("short") == {"warriors": 14, "road_forward": 10}
    assert meeple.get_game("saboteur").variant_options("deluxe") == {"edition": "deluxe"}
    for game in ("kings", "mordred", "saboteur", "gophers"):
        with pytest.raises(ConfigError, match=f"{game} has no variant 'nope'"):
            meeple.get_game(game).variant_options("nope")
