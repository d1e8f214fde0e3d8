"""No seat learns what it may not: random matches of every installed game, every seat, every boundary.

For each game (bundled or registered), hypothesis draws a variant, a seat
count, a seed and the bots' seed, plays a random match, and runs the kit's
secret checks over it: at sampled positions, for every seat and the
spectator, what the seat is shown (its view, its legal commands, who is to
act, its picture, the next record's command and events as it sees them)
must not change when only what it may not know is re-dealt; commands with
the same public effect must look the same to other seats; decide must not
write the seed or the RNG position into events; and nothing a seat is shown
holds the seed or its salt.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple import get_game
from meeple.testing import check_command_redaction, check_rng_blind, check_secrets, check_views, game_params, playout


@pytest.mark.parametrize("game_id", game_params())
@settings(max_examples=4)
@given(data=st.data(), seed=st.integers(0, 2**64 - 1), bot_seed=st.integers(0, 2**16))
def test_nothing_a_seat_is_shown_depends_on_what_it_may_not_know(
    game_id: str, data: st.DataObject, seed: int, bot_seed: int
) -> None:
    game = get_game(game_id)
    variant = data.draw(st.sampled_from(game.info.variants), label="variant")
    low, high = game.info.seat_range(variant)
    seats = data.draw(st.integers(low, min(high, low + 3)), label="seats")
    p = playout(game, seats, game.variant_options(variant), seed=seed, bot_seed=bot_seed, max_steps=1500)
    check_views(p, samples=8)
    check_command_redaction(p, samples=6)
    check_rng_blind(p, samples=12)
    check_secrets(p, samples=8)
