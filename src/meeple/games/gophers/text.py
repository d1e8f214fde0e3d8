"""What a Gophers player reads, in English and Russian: each command offered and each record as a sentence.

Built only from what it is handed (a legal command, or a record's command and
events as one seat saw them, other seats' cards None), so it tells nothing
the seat may not know.

>>> from meeple.games.gophers.commands import Add
>>> text(Add("B7"), None, "ru")
'выложить ягоды 7 со знаком плюс'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from meeple.engine import Command, Event, Outcome
from meeple.engine.text import Texts, told

from .commands import Add, Collect, Deal, Dig, Move, OpenBook, Pass, Place, Roll, Subtract, TakeGift
from .data import Card, Kind
from .events import (
    BankLaid,
    BasketRedeemed,
    BasketsTaken,
    BookOpened,
    BookRolled,
    CardDrawn,
    CardLaid,
    Collected,
    Dealt,
    DigPlayed,
    ExtraMove,
    GameEnded,
    GiftOffered,
    GiftTaken,
    Moved,
    Passed,
    Placed,
    Rolled,
)

_RU = {
    "acorn": "жёлуди", "berry": "ягоды", "wheat": "пшеница", "dig": "копалка",
    "acorns": "жёлуди", "berries": "ягоды", "wheat ears": "пшеница",
    "{kind} {value}": "{kind} {value}",
    "seat {n}": "место {n}",
    "deal": "раздать",
    "open the book": "открыть книгу",
    "put your pawn on hole {hole}": "поставить фишку на нору {hole}",
    "roll the die": "бросить кубик",
    "play a dig card": "сыграть копалку",
    "walk to hole {hole}": "пройти к норе {hole}",
    "walk to hole {hole}, jumping {seats}": "пройти к норе {hole}, перепрыгнув: {seats}",
    "keep the gift {card}": "оставить подарок: {card}",
    "lay {card}, added": "выложить {card} со знаком плюс",
    "lay {card}, subtracted": "выложить {card} со знаком минус",
    "collect with the laid cards": "собрать выложенными картами",
    "do not collect": "не собирать",
    "the cards are dealt": "карты розданы",
    "the bank is laid out": "банк выложен",
    "put the pawn on hole {hole}": "поставил фишку на нору {hole}",
    "the book opens at spread {n}": "книга открыта на развороте {n}",
    "rolled {roll}": "выбросил {roll}",
    "walked to hole {hole}": "прошёл к норе {hole}",
    "walked to hole {hole}, jumping {seats}": "прошёл к норе {hole}, перепрыгнув: {seats}",
    "played a dig card": "сыграл копалку",
    "played the dig card of a gift": "сыграл копалку из подарка",
    "rolled {roll} for the book and turned the page": "выбросил {roll} для книги и перевернул страницу",
    "rolled {roll} for the book": "выбросил {roll} для книги",
    "is offered gift cards": "получил на выбор подарки",
    "is offered {cards}": "получил на выбор: {cards}",
    "kept the gift {card}": "оставил подарок: {card}",
    "moves again": "ходит ещё раз",
    "laid {card}, added": "выложил {card} со знаком плюс",
    "laid {card}, subtracted": "выложил {card} со знаком минус",
    "collected {count}": "собрал {count}",
    "did not collect": "не стал собирать",
    "drew a card": "взял карту",
    "drew {card}": "взял {card}",
    "took the baskets of {seats} from {seat}": "забрал корзинки ({seats}), которые держал: {seat}",
    "redeemed the basket from {seat}": "выкупил свою корзинку ({seat})",
    "the game is over: {reason}": "игра окончена: {reason}",
    "the bank ran out of {kind}": "в банке кончились {kind}",
    "the deck is empty and {seat} holds {n} cards": "колода пуста; {seat}: карт на руке {n}",
    "{rounds} rounds passed without a productive turn or a draw": "прошло кругов без добычи и без взятия карты: {rounds}",
}

#: What a card or a hole does, one sentence each, by the name the board knows it by (a card kind, a hole's label
#: kind, "unseen", "die"): the browser board's zoom.
ABOUT = {
    "acorn": "An acorn card: lay it, added or subtracted, to make the number of an acorn supply or of a store.",
    "berry": "A berry card: lay it, added or subtracted, to make the number of a berry supply or of a store.",
    "wheat": "A wheat card: lay it, added or subtracted, to make the number of a wheat supply or of a store.",
    "dig": "A dig card: instead of walking, roll the die and turn the book to that spread.",
    "unseen": "A card you have not seen.",
    "supply": "A supply: ending here, collect that many of this kind with cards whose sum or difference makes the "
              "number.",
    "store": "A store: collect that many supplies with cards of any kinds.",
    "portal": "A portal: ending a walk here rolls the die and turns the book to that spread.",
    "gift": "A gift: ending a walk here shows you three cards of the deck; keep one on your face-up pile.",
    "nothing": "An empty hole: nothing to collect here.",
    "die": "The die: roll it, then walk exactly that many holes along the tunnels.",
}

ABOUT_RU = {
    ABOUT["acorn"]: "Карта жёлудя: выложите её со знаком плюс или минус, чтобы набрать число припасов жёлудей или "
                    "склада.",
    ABOUT["berry"]: "Карта ягод: выложите её со знаком плюс или минус, чтобы набрать число припасов ягод или склада.",
    ABOUT["wheat"]: "Карта пшеницы: выложите её со знаком плюс или минус, чтобы набрать число припасов пшеницы или "
                    "склада.",
    ABOUT["dig"]: "Копалка: вместо хода бросьте кубик и переверните книгу на этот разворот.",
    ABOUT["unseen"]: "Карта, которую вы не видели.",
    ABOUT["supply"]: "Припасы: закончив здесь ход, соберите столько припасов этого вида картами, сумма или разница "
                     "которых даёт это число.",
    ABOUT["store"]: "Склад: соберите столько припасов картами любых видов.",
    ABOUT["portal"]: "Портал: закончив здесь ход, бросьте кубик и переверните книгу на этот разворот.",
    ABOUT["gift"]: "Подарок: закончив здесь ход, посмотрите три карты колоды и оставьте одну в открытой стопке.",
    ABOUT["nothing"]: "Пустая нора: здесь нечего собирать.",
    ABOUT["die"]: "Кубик: бросьте его и пройдите по ходам ровно столько нор.",
}

TEXTS = Texts({"ru": {**_RU, **ABOUT_RU}})

#: The words of the table's text picture (render.py) in Russian: its lines, key and statuses.
_PICTURE_RU = {
    "Gophers ({variant}), {n} players": "Проныры ({variant}), игроков: {n}",
    "standard": "стандартные правила", "simplified": "упрощённые правила", "advanced": "продвинутые правила",
    "beginner": "правила для начинающих",
    "  (not dealt yet)": "  (ещё не роздано)",
    "Spread {n} of 6": "Разворот {n} из 6",
    "seat {n} on hole {hole}": "место {n} на норе {hole}",
    "The book is not open yet; pawns: {pawns}": "Книга ещё не открыта; фишки: {pawns}",
    "none placed": "не поставлены",
    "Key:": "Ключ:",
    "07": "07", "A5": "A5", "B5": "B5", "W5": "W5", "S9": "S9", "P": "P", "G": "G", ".": ".", "@1": "@1", "-": "-", "|": "|",
    "blank": "пусто", "A7 B7 W7": "A7 B7 W7", "D": "D", "?": "?", "+[...]": "+[...]", "-[...]": "-[...]",
    "hole number": "номер норы", "5 acorns": "5 желудей", "5 berries": "5 ягод", "5 wheat ears": "5 колосьев",
    "store: 9 of any kind": "склад: 9 любого вида", "portal": "портал", "gift": "подарок", "nothing": "ничего",
    "seat 1's pawn": "фишка места 1", "tunnel to the right": "ход направо", "tunnel below": "ход вниз", "wall": "стена",
    "acorn, berry, wheat-ear card of value 7": "карта жёлудя, ягоды, колоса на 7", "dig card": "копалка",
    "a card you have not seen": "карта, которую вы не видели",
    "face-up pile (added cards and gifts)": "открытая стопка (прибавленные карты и подарки)",
    "face-down pile (subtracted cards)": "закрытая стопка (вычтенные карты)",
    "baskets [0, 2] the owners whose baskets a seat holds": "корзинки [0, 2] чьи корзинки держит место",
    " (you)": " (вы)",
    "dig cards {n}": "копалок {n}",
    "hand {cards}": "рука {cards}",
    "hand {n} cards": "в руке карт {n}",
    " (you know {cards})": " (вы знаете {cards})",
    "; baskets {held}": "; корзинки {held}",
    "seat {n}{you}: hole {hole}; score {score}; {hand}; pile +[{up}] -[{down}]":
        "место {n}{you}: нора {hole}; очки {score}; {hand}; стопка +[{up}] -[{down}]",
    "bank: {cards}": "банк: {cards}",
    "deck: {n} cards": "колода: карт {n}",
    "{card} {n}{nth} from the top": "{card} {n}-я сверху",
    "st": "", "nd": "", "rd": "", "th": "",
    " (you know: {cards})": " (вы знаете: {cards})",
    "seat {n} places a pawn": "место {n} ставит фишку",
    "seat {n} to roll (or dig)": "место {n} бросает кубик (или копает)",
    "seat {n} rolled {roll}: walk (or dig)": "место {n} выбросило {roll}: идёт (или копает)",
    "seat {n} chooses a gift: {cards}": "место {n} выбирает подарок: {cards}",
    ", has laid {cards}": ", выложило {cards}",
    "seat {n} may collect": "место {n} может собрать",
    " (then seat {then})": " (потом место {then})",
    "game over: {reason}": "игра окончена: {reason}",
}
#: The text picture's catalog (``render.render(..., lang=)``); the game's own words come from :data:`TEXTS`.
PICTURE = Texts({"ru": _PICTURE_RU})
_LETTER = {"A": Kind.ACORN, "B": Kind.BERRY, "W": Kind.WHEAT}


def card(lang: str, c: Card | str | None) -> str:
    """A card as its kind and value (``berries 7``), from a card or its command name (``B7``, ``D``)."""
    if c is None:
        return "?"
    if isinstance(c, str):
        if c == "D":
            return TEXTS.word(lang, "dig")
        kind = _LETTER.get(c[:1])
        return c if kind is None else TEXTS(lang, "{kind} {value}", kind=TEXTS.word(lang, kind.value), value=c[1:])
    if c.kind is Kind.DIG:
        return TEXTS.word(lang, "dig")
    return TEXTS(lang, "{kind} {value}", kind=TEXTS.word(lang, c.kind.value), value=c.value)


def _seats(lang: str, seats: Sequence[int]) -> str:
    return ", ".join(TEXTS(lang, "seat {n}", n=s) for s in seats)


def offer(command: Command, lang: str) -> str:
    """A legal command as its button reads."""
    _ = TEXTS
    match command:
        case Deal():
            return _(lang, "deal")
        case OpenBook():
            return _(lang, "open the book")
        case Place(hole=h):
            return _(lang, "put your pawn on hole {hole}", hole=h)
        case Roll():
            return _(lang, "roll the die")
        case Dig():
            return _(lang, "play a dig card")
        case Move(dest=d):
            jumped = command.jumped
            if jumped:
                return _(lang, "walk to hole {hole}, jumping {seats}", hole=d, seats=_seats(lang, jumped))
            return _(lang, "walk to hole {hole}", hole=d)
        case TakeGift(card=c):
            return _(lang, "keep the gift {card}", card=card(lang, c))
        case Add(card=c):
            return _(lang, "lay {card}, added", card=card(lang, c))
        case Subtract(card=c):
            return _(lang, "lay {card}, subtracted", card=card(lang, c))
        case Collect():
            return _(lang, "collect with the laid cards")
        case Pass():
            return _(lang, "do not collect")
    return type(command).__name__


_REASONS = (
    (re.compile(r"the bank ran out of (.+)"), "the bank ran out of {kind}", ("kind",)),
    (re.compile(r"the deck is empty and seat (\d+) holds (\d+) cards"), "the deck is empty and {seat} holds {n} cards",
     ("seat", "n")),
    (re.compile(r"(\d+) rounds passed without a productive turn or a draw"),
     "{rounds} rounds passed without a productive turn or a draw", ("rounds",)),
)


def reason(lang: str, text: str) -> str:
    """Why the game ended (the rules' English sentence) in ``lang``."""
    for pattern, msgid, names in _REASONS:
        found = pattern.fullmatch(text)
        if found:
            values = dict(zip(names, found.groups(), strict=True))
            if "kind" in values:
                values["kind"] = TEXTS.word(lang, values["kind"])
            if "seat" in values:
                values["seat"] = TEXTS(lang, "seat {n}", n=values["seat"])
            return TEXTS(lang, msgid, **values)
    return text


def tell(event: Event, lang: str) -> str | None:
    """One event as a clause of a record's sentence; None for what nobody needs to read (a turn passing)."""
    _ = TEXTS
    match event:
        case Dealt():
            return _(lang, "the cards are dealt")
        case BankLaid():
            return _(lang, "the bank is laid out")
        case Placed(hole=h):
            return _(lang, "put the pawn on hole {hole}", hole=h)
        case BookOpened(roll=r):
            return _(lang, "the book opens at spread {n}", n=r)
        case Rolled(roll=r):
            return _(lang, "rolled {roll}", roll=r)
        case Moved(dest=d, jumped=jumped) if jumped:
            return _(lang, "walked to hole {hole}, jumping {seats}", hole=d, seats=_seats(lang, jumped))
        case Moved(dest=d):
            return _(lang, "walked to hole {hole}", hole=d)
        case DigPlayed(from_gift=True):
            return _(lang, "played the dig card of a gift")
        case DigPlayed():
            return _(lang, "played a dig card")
        case BookRolled(roll=r, turned=True):
            return _(lang, "rolled {roll} for the book and turned the page", roll=r)
        case BookRolled(roll=r):
            return _(lang, "rolled {roll} for the book", roll=r)
        case GiftOffered(cards=None):
            return _(lang, "is offered gift cards")
        case GiftOffered(cards=tuple() as cards):
            return _(lang, "is offered {cards}", cards=", ".join(card(lang, c) for c in cards))
        case GiftTaken(card=c):
            return _(lang, "kept the gift {card}", card=card(lang, c))
        case ExtraMove():
            return _(lang, "moves again")
        case CardLaid(card=c, subtracted=True):
            return _(lang, "laid {card}, subtracted", card=card(lang, c))
        case CardLaid(card=c):
            return _(lang, "laid {card}, added", card=card(lang, c))
        case Collected(count=n):
            return _(lang, "collected {count}", count=n)
        case Passed():
            return _(lang, "did not collect")
        case CardDrawn(card=None):
            return _(lang, "drew a card")
        case CardDrawn(card=c):
            return _(lang, "drew {card}", card=card(lang, c))
        case BasketsTaken(victim=v, owners=owners):
            return _(lang, "took the baskets of {seats} from {seat}", seats=_seats(lang, owners),
                     seat=_(lang, "seat {n}", n=v))
        case BasketRedeemed(holder=h):
            return _(lang, "redeemed the basket from {seat}", seat=_(lang, "seat {n}", n=h))
        case GameEnded(reason=r):
            return _(lang, "the game is over: {reason}", reason=reason(lang, r))
    return None


def text(command: Command, events: Sequence[Event] | None = None, lang: str = "en") -> str:
    """A legal command as offered (``events`` None), or a record as a sentence of its events."""
    return told(command, events, lang, offer, tell)


def outcome_text(outcome: Outcome, lang: str = "en") -> str:
    """Why the match ended (the rules' English ``outcome.reason``: the end's reason) in ``lang``."""
    return reason(lang, outcome.reason)


__all__ = ["ABOUT", "ABOUT_RU", "PICTURE", "TEXTS", "card", "offer", "outcome_text", "reason", "tell", "text"]
