"""What an Underground Kings player reads, in English and Russian: each command offered and each record as a sentence.

Built only from what it is handed (a legal command, or a record's command and
events as one seat saw them), so it tells nothing the seat may not know.

>>> from meeple.games.kings.commands import DrawDeck
>>> text(DrawDeck(), None, "ru")
'взять карту из колоды'
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.engine import Command, Event
from meeple.engine.text import Texts, rewording, told

from .commands import DrawCamp, DrawDeck, Play, Retreat, SetUp
from .data import CARDS, Mine
from .events import (
    DrewFromCamp,
    DrewFromDeck,
    GameEnded,
    KingsDealt,
    MineCaptured,
    MineDeveloped,
    MineTurned,
    Retreated,
    SquadPlayed,
)

_RU = {
    "orcs": "орки", "goblins": "гоблины", "dwarves": "гномы", "giants": "великаны",
    "{people} {strength}": "{people} {strength}",
    "seat {n}": "место {n}",
    "a mine worth {value}, defence {defence}, depth {depth}": "шахта на {value} очк., защита {defence}, глубина {depth}",
    "a mine worth {value}, defence {defence}, depth {depth}, with an overseer":
        "шахта на {value} очк., защита {defence}, глубина {depth}, с надсмотрщиком",
    "play {squad} on mine {mine}": "сыграть отряд «{squad}» на шахту {mine}",
    "show the hand and retreat {squad} to the camp": "показать руку и отступить отрядом «{squad}» в лагерь",
    "draw from the deck": "взять карту из колоды",
    "draw the top {people} squad from the camp": "взять из лагеря верхний отряд: {people}",
    "set up the table": "разложить стол",
    "the kings are dealt their peoples": "короли получили свои народы",
    "mine {n} is opened: {mine}": "открыта шахта {n}: {mine}",
    "played {squad} on mine {mine}": "сыграл отряд «{squad}» на шахту {mine}",
    "{seat} captured mine {mine}": "шахта {mine} захвачена: {seat}",
    "developed mine {mine}, worth {value}": "разработал шахту {mine} на {value} очк.",
    "showed the hand and retreated {squad} to the camp": "показал руку и отступил отрядом «{squad}» в лагерь",
    "drew from the deck": "взял карту из колоды",
    "drew {squad} from the deck": "взял из колоды отряд «{squad}»",
    "drew {squad} from the camp": "взял из лагеря отряд «{squad}»",
    "the game is over: {reason}": "игра окончена: {reason}",
    "the last card of the deck was turned up as a new mine": "последняя карта колоды открыта как новая шахта",
    "the last card of the deck was drawn": "взята последняя карта колоды",
    # why the match ended, as the rules word it (Outcome.reason; see outcome_text)
    "the deck ran out; seat {seat} has the most points ({n})": "колода кончилась; больше всех очков у места {seat} ({n})",
    "the deck ran out; seats {seats} tie on {n} points and developed mines": "колода кончилась; у мест {seats} поровну очков ({n}) и разработанных шахт",
}

#: What a card or a place on the board does, one sentence each, by the name the board knows it by: the browser
#: board's zoom.
ABOUT = {
    "squad": "A squad: play it on a central mine or on one of your own mines; it must be stronger than the top squad "
             "there (a 0 beats a 9).",
    "mine": "A mine: as many squads as its defence capture it for the people of the last one; its owner develops it "
            "with as many foreign workers as its depth, and scores its value (or loses it if it is left unfinished).",
    "overseer": "This mine needs an overseer: one squad of its owner's own people on top of the workers.",
    "deck": "The deck, mine side up: draw its top card as a squad, or it becomes the next central mine.",
    "camp": "A camp pile: draw its top squad instead of a card from the deck; captured and developed mines send their "
            "squads here.",
    "back": "A card in another player's hand: you see its mine side, not the squad.",
}

ABOUT_RU = {
    ABOUT["squad"]: "Отряд: сыграйте его на центральную шахту или на свою; он должен быть сильнее верхнего отряда там "
                    "(0 бьёт 9).",
    ABOUT["mine"]: "Шахта: столько отрядов, какова защита, захватывают её для народа последнего из них; хозяин "
                   "разрабатывает её столькими чужими работниками, какова глубина, и получает её ценность (или теряет, "
                   "если не закончил).",
    ABOUT["overseer"]: "Этой шахте нужен надсмотрщик: отряд народа её хозяина поверх работников.",
    ABOUT["deck"]: "Колода шахтами вверх: возьмите верхнюю карту как отряд, или она станет следующей центральной "
                   "шахтой.",
    ABOUT["camp"]: "Стопка лагеря: возьмите верхний отряд вместо карты из колоды; сюда уходят отряды захваченных и "
                   "разработанных шахт.",
    ABOUT["back"]: "Карта на руке другого игрока: видна её сторона шахты, а не отряд.",
}

TEXTS = Texts({"ru": {**_RU, **ABOUT_RU}})

#: The words of the table's text picture (render.py) in Russian: its lines, key and statuses.
_PICTURE_RU = {
    "or": "ор", "go": "гб", "dw": "гн", "gi": "вк",
    "{value}pt def{defence} dep{depth}": "{value}оч з{defence} г{depth}", "+O": "+Н",
    "Underground Kings, {n} players: not set up yet": "Подземные короли, игроков: {n}; стол ещё не разложен",
    "Underground Kings, {n} players": "Подземные короли, игроков: {n}",
    " (you are seat {n})": " (вы: место {n})",
    "Deck: {n} cards, top mine {top}": "Колода: карт {n}, верхняя шахта {top}",
    "Central mines:": "Центральные шахты:",
    "  mine {n} {mine} squads {stack}/{need}: {squads}": "  шахта {n} {mine} отряды {stack}/{need}: {squads}",
    "Camp (bottom to top): ": "Лагерь (снизу вверх): ",
    "Key: 3pt def2 dep1+O a mine worth 3 points, taken by 2 squads (defence), developed by 1 worker (depth),":
        "Ключ: 3оч з2 г1+Н шахта на 3 очка, берут 2 отряда (защита), разрабатывает 1 рабочий (глубина),",
    "     +O needing an overseer too; or2 go5 dw7 gi0 a squad: its people (orcs, goblins, dwarves, giants)":
        "     +Н нужен ещё надсмотрщик; ор2 гб5 гн7 вк0 отряд: его народ (орки, гоблины, гномы, великаны)",
    "     and its strength": "     и его сила",
    "Discard: {squads}": "Сброс: {squads}",
    "Seat {n} ({people} king), score {score}": "Место {n} (король: {people}), очки {score}",
    "{n}+overseer": "{n}+надсмотрщик",
    "    mine {n} {mine} workers {stack}/{need}: {squads}": "    шахта {n} {mine} рабочие {stack}/{need}: {squads}",
    "    developed: ": "    разработаны: ",
    "    hand: ": "    рука: ",
    "    hand backs: ": "    рубашки руки: ",
    "    seen by all: ": "    видны всем: ",
    " and ": " и ",
    "seat {n} ({people})": "место {n} ({people})",
    "Game over: the deck ran out. Winners: {names}.": "Игра окончена: колода кончилась. Победители: {names}.",
    "Game over: the deck ran out. Winner: {names}.": "Игра окончена: колода кончилась. Победитель: {names}.",
    "Seat {n} draws from the deck (after a retreat)": "Место {n} берёт карту из колоды (после отступления)",
    "Seat {n} draws": "Место {n} берёт карту",
    "Seat {n} plays a squad": "Место {n} играет отряд",
}
#: The text picture's catalog (``render.render(..., lang=)``); the game's own words come from :data:`TEXTS`.
PICTURE = Texts({"ru": _PICTURE_RU})


def squad(lang: str, card: int | None) -> str:
    """A squad card as its people and strength (``goblins 7``)."""
    if card is None or not 0 <= card < len(CARDS):
        return "?"
    c = CARDS[card]
    return TEXTS(lang, "{people} {strength}", people=TEXTS.word(lang, c.people.value), strength=c.strength)


def mine(lang: str, m: Mine) -> str:
    """A mine side in words: value, defence, depth and overseer."""
    msg = "a mine worth {value}, defence {defence}, depth {depth}"
    return TEXTS(lang, msg + (", with an overseer" if m.overseer else ""), value=m.value, defence=m.defence,
                 depth=m.depth)


def offer(command: Command, lang: str) -> str:
    """A legal command as its button reads."""
    _ = TEXTS
    match command:
        case Play(card=card, mine=number):
            return _(lang, "play {squad} on mine {mine}", squad=squad(lang, card), mine=number)
        case Retreat(card=card):
            return _(lang, "show the hand and retreat {squad} to the camp", squad=squad(lang, card))
        case DrawDeck():
            return _(lang, "draw from the deck")
        case DrawCamp(people=people):
            return _(lang, "draw the top {people} squad from the camp", people=_.word(lang, people.value))
        case SetUp():
            return _(lang, "set up the table")
    return type(command).__name__


def tell(event: Event, lang: str) -> str | None:
    """One event as a clause of a record's sentence; None for what nobody needs to read (shuffles, deals)."""
    _ = TEXTS
    match event:
        case KingsDealt():
            return _(lang, "the kings are dealt their peoples")
        case MineTurned(number=n, mine=m):
            return _(lang, "mine {n} is opened: {mine}", n=n, mine=mine(lang, m))
        case SquadPlayed(card=card, mine=number):
            return _(lang, "played {squad} on mine {mine}", squad=squad(lang, card), mine=number)
        case MineCaptured(mine=number, owner=owner):
            return _(lang, "{seat} captured mine {mine}", seat=_(lang, "seat {n}", n=owner), mine=number)
        case MineDeveloped(mine=number, value=value):
            return _(lang, "developed mine {mine}, worth {value}", mine=number, value=value)
        case Retreated(card=card):
            return _(lang, "showed the hand and retreated {squad} to the camp", squad=squad(lang, card))
        case DrewFromDeck(card=None):
            return _(lang, "drew from the deck")
        case DrewFromDeck(card=card):
            return _(lang, "drew {squad} from the deck", squad=squad(lang, card))
        case DrewFromCamp(card=card):
            return _(lang, "drew {squad} from the camp", squad=squad(lang, card))
        case GameEnded(reason=reason):
            return _(lang, "the game is over: {reason}", reason=_.word(lang, reason))
    return None


def text(command: Command, events: Sequence[Event] | None = None, lang: str = "en") -> str:
    """A legal command as offered (``events`` None), or a record as a sentence of its events."""
    return told(command, events, lang, offer, tell)


#: The sentences the rules say why the match ended with (``Outcome.reason``), as message ids.
OUTCOMES = (
    "the deck ran out; seat {seat} has the most points ({n})",
    "the deck ran out; seats {seats} tie on {n} points and developed mines",
)
#: Why the match ended (the rules' English ``outcome.reason``) in a language.
outcome_text = rewording(TEXTS, OUTCOMES)


__all__ = ["ABOUT", "ABOUT_RU", "OUTCOMES", "PICTURE", "TEXTS", "mine", "offer", "outcome_text", "squad", "tell", "text"]
