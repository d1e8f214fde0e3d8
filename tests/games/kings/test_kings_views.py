"""What each seat sees in Underground Kings: views, redaction and determinization."""

from __future__ import annotations

import pytest

import meeple
from meeple.engine import Rng
from meeple.engine.memo import clear_all
from meeple.games.kings import GAME
from meeple.games.kings.commands import DrawCamp, DrawDeck, Play
from meeple.games.kings.data import CARDS
from meeple.games.kings.events import DeckShuffled, DrewFromCamp, DrewFromDeck, HandDealt, MineTurned, Retreated
from meeple.games.kings.scoring import scores
from meeple.games.kings.state import Phase, State
from meeple.games.kings.view import KingsView, MineView, backs


def _midgame(seed: int = 4, seats: int = 3, steps: int = 40) -> meeple.Match:
    m = meeple.Match.start("kings", seats=seats, seed=seed)
    bot = meeple.RandomBot(seed)
    for _ in range(steps):
        seat = m.to_act[0]
        m.play(seat, bot.choose(None, m.legal(seat), seat))
    return m


def test_view_shows_own_hand_and_only_the_backs_of_other_hands() -> None:
    m = _midgame()
    st = m.state
    v = m.view(1)
    assert v.hand == st.hands[1]
    assert v.hand_backs[0] == backs(st.hands[0])
    assert all(isinstance(b, type(CARDS[0].mine)) for b in v.hand_backs[0])
    spectator = m.view(None)
    assert spectator.hand == ()


def test_view_shows_the_deck_top_mine_side_but_not_the_deck_order() -> None:
    m = _midgame()
    v = m.view(0)
    assert v.deck_top == CARDS[m.state.deck[0]].mine
    assert v.deck_size == len(m.state.deck)
    assert not hasattr(v, "deck")


def test_view_does_not_change_when_hidden_cards_are_redealt() -> None:
    m = _midgame(seed=9, seats=4, steps=60)
    rng = Rng(1)
    for seat in (0, 1, 2, 3, None):
        for _ in range(5):
            other = GAME.determinize(m.state, seat, rng)
            assert GAME.view(other, seat) == GAME.view(m.state, seat)


def test_determinize_really_redeals_hidden_cards() -> None:
    m = _midgame(seed=5, seats=2, steps=10)
    st = m.state
    other = GAME.determinize(st, 0, Rng(2))
    assert other.hands[0] == st.hands[0]
    assert other.deck[1:] != st.deck[1:]
    assert CARDS[other.deck[0]].mine == CARDS[st.deck[0]].mine
    assert sorted([*other.deck, *other.hands[1], *(s.card for s in other.mines)]) == sorted(
        [*st.deck, *st.hands[1], *(s.card for s in st.mines)]
    )


def test_redaction_hides_the_shuffle_mine_faces_and_other_hands() -> None:
    m = meeple.Match.start("kings", seats=2, seed=3)
    events = m.records[0].events
    shuffled = next(e for e in events if isinstance(e, DeckShuffled))
    assert GAME.redact(shuffled, 0) == DeckShuffled(None)
    turned = next(e for e in events if isinstance(e, MineTurned))
    assert GAME.redact(turned, 0).card is None  # type: ignore[union-attr]
    assert GAME.redact(turned, None).card is None  # type: ignore[union-attr]
    dealt = [e for e in events if isinstance(e, HandDealt)]
    assert GAME.redact(dealt[0], 0) == dealt[0]
    hidden = GAME.redact(dealt[0], 1)
    assert isinstance(hidden, HandDealt) and hidden.cards is None and hidden.backs == dealt[0].backs


def test_redaction_hides_a_deck_draw_from_other_seats_only() -> None:
    e = DrewFromDeck(1, 42, CARDS[42].mine)
    assert GAME.redact(e, 1) == e
    assert GAME.redact(e, 0) == DrewFromDeck(1, None, CARDS[42].mine)


def test_events_for_a_seat_never_name_a_card_it_cannot_see() -> None:
    checked = 0
    for seed in range(6, 16):
        m = _midgame(seed=seed, seats=2, steps=80)
        seen: set[int] = set()
        known: set[int] = set()  # cards the other seat took from the camp or showed in a retreat
        for e in m.events_for(0):
            if isinstance(e, DrewFromCamp) and e.seat == 1:
                known.add(e.card)
            if isinstance(e, Retreated) and e.seat == 1:
                known.update(e.hand)
            for name in ("card", "cards", "order", "squads", "hand"):
                value = getattr(e, name, None)
                if isinstance(value, int):
                    seen.add(value)
                elif isinstance(value, tuple):
                    seen.update(value)
        # a card in the other hand was dealt or drawn from the deck (never seen), or seen by all
        opponent = set(m.state.hands[1])
        assert opponent & seen == opponent & known
        assert all(s.card not in seen for s in m.state.mines)
        checked += len(opponent - known)
    assert checked  # the check is not empty


def test_render_shows_mines_stacks_camp_and_scores() -> None:
    m = _midgame(seed=7, seats=2, steps=30)
    text = m.render(0)
    assert "Central mines:" in text and "Camp (bottom to top):" in text and "score" in text
    assert "hand backs:" in text  # the other seat's hand shows only its backs
    referee = m.render(None)
    assert referee.count("hand:") == 2


def test_render_names_the_winner_when_the_game_is_over() -> None:
    m = _midgame(seed=8, seats=2, steps=0)
    bot = meeple.RandomBot(8)
    while not m.is_over:
        seat = m.to_act[0]
        m.play(seat, bot.choose(None, m.legal(seat), seat))
    outcome = m.outcome
    assert outcome is not None
    assert f"seat {outcome.winners[0]}" in m.render(None).splitlines()[-1]
    assert "Game over" in m.render(0)


def test_cards_taken_from_the_camp_stay_visible_in_the_hand() -> None:
    m = meeple.Match.start("kings", seats=2, seed=12)
    m.play(0, m.legal(0)[0])
    m.play(0, DrawDeck())
    m.play(1, m.legal(1)[0])
    take = next(c for c in m.legal(1) if isinstance(c, DrawCamp))
    events = m.play(1, take)
    taken = next(e.card for e in events if isinstance(e, DrewFromCamp))
    assert m.view(0).open_hands[1] == (taken,)
    for s in range(3):
        assert taken in GAME.determinize(m.state, 0, Rng(s)).hands[1]
    assert CARDS[taken].squad_label() in m.render(0)
    # once played, it is no longer a known card in that hand
    m.play(0, m.legal(0)[0])
    m.play(0, DrawDeck())
    m.play(1, Play(taken, next(p.mine for p in m.legal(1) if isinstance(p, Play) and p.card == taken)))
    assert m.view(0).open_hands[1] == ()


def _plain_view(state: State, seat: int) -> KingsView:
    """The view worked out from the state with nothing remembered: what the shared parts must equal."""
    return KingsView(
        seat=seat, seats=state.seats, options=state.options, phase=state.phase, turn=state.turn,
        peoples=state.peoples, hand=state.hands[seat], hand_backs=tuple(backs(h) for h in state.hands),
        open_hands=state.open_cards, deck_size=len(state.deck),
        deck_top=CARDS[state.deck[0]].mine if state.deck and state.phase is not Phase.SETUP else None,
        mines=tuple(MineView(m.number, m.owner, CARDS[m.card].mine, m.stack) for m in state.mines),
        developed=tuple(tuple(CARDS[c].mine for c in dev) for dev in state.developed),
        camp=state.camp, discard=state.discard, scores=scores(state), must_draw_deck=state.retreated,
    )


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_view_of_a_match_equals_the_plain_one_though_its_parts_are_shared(seats: int) -> None:
    # the views share parts remembered by the state's tuples (viewparts): every view of every seat through
    # whole matches, built while those memos fill, empty and refill, must be the one made from nothing
    for seed in range(2):
        m = meeple.Match.start("kings", seats=seats, seed=seed)
        bot = meeple.RandomBot(seed)
        while m.outcome is None:
            for s in range(seats):
                assert m.view(s) == _plain_view(m.state, s)
            seat = m.to_act[0]
            m.play(seat, bot.choose(None, m.legal(seat), seat))
        clear_all()  # a cleared memo gives the same views
        assert all(m.view(s) == _plain_view(m.state, s) for s in range(seats))


def test_patched_mine_views_and_scores_are_those_made_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    # A play replaces one slot of the table: the mines' views and the scores of the next table are patched from
    # the last table's; at every position of a few random matches they must be what the state says, and the
    # patches must have been taken (not only the full build).
    from meeple.games.kings import viewparts

    taken = []
    real = viewparts.changed_one

    def spy(old: tuple[object, ...], new: tuple[object, ...]) -> int:
        i = real(old, new)
        taken.append(i)
        return i

    monkeypatch.setattr(viewparts, "changed_one", spy)
    for seed in (1, 2):
        m = meeple.Match.start("kings", seats=3, seed=seed)
        bot = meeple.RandomBot(seed)
        while m.outcome is None:
            seat = m.to_act[0]
            st = m.state
            v = m.view(seat)
            assert v.mines == tuple(MineView(s.number, s.owner, CARDS[s.card].mine, s.stack) for s in st.mines)
            assert v.scores == scores(st)
            m.play(seat, bot.choose(None, m.legal(seat), seat))
    assert sum(i >= 0 for i in taken) > 100
