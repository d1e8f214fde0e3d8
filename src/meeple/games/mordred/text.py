"""What a Mordred player reads, in English and Russian: each command offered and each record as a sentence.

Mordred hides nothing, but the texts are still built only from what they are
handed (a legal command, or a record's command and events).

>>> from meeple.games.mordred.commands import Place
>>> text(Place("CON"), None, "ru")
'поставить воина: Конуи'
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.engine import Command, Event
from meeple.engine.text import Texts, rewording, told

from .commands import Attack, Build, EndTurn, Place, Roll, Start
from .data import AREAS
from .events import (
    Assaulted,
    Attacked,
    Built,
    FirstPlayerRolled,
    GameEnded,
    Rolled,
    Siege,
    TurnEnded,
    WarriorPlaced,
)
from .state import End

#: The map's places, in Russian.
AREAS_RU = {
    "Holyhead": "Холихед", "Mordred's castle": "Замок Мордреда", "Beaumaris": "Бомарис", "Llyn": "Ллин",
    "Snowdon": "Сноудон", "Conwy": "Конуи", "Denbigh": "Денби", "Flint": "Флинт", "Harlech": "Харлех", "Bala": "Бала",
    "Llangollen": "Лланголлен", "Wrexham": "Рексем", "Dolgellau": "Долгеллау", "Machynlleth": "Махинллет",
    "Newtown": "Ньютаун", "Welshpool": "Велшпул", "Aberystwyth": "Аберистуит", "Rhayader": "Райадер",
    "Llandrindod": "Лландриндод", "Knighton": "Найтон", "Cardigan": "Кардиган", "Lampeter": "Лампетер",
    "Llandovery": "Лландовери", "Brecon": "Брекон", "Hay": "Хей", "Pembroke": "Пембрук", "Carmarthen": "Кармартен",
    "Swansea": "Суонси", "Merthyr": "Мертир", "Abergavenny": "Абергавенни", "Gower": "Гауэр", "Cardiff": "Кардифф",
    "Chepstow": "Чепстоу",
}

_RU = {
    **AREAS_RU,
    "village": "деревня", "town": "город", "castle": "замок",
    "seat {n}": "место {n}",
    "declare row {row} and roll": "объявить ряд {row} и бросить кубики",
    "put a warrior on {area}": "поставить воина: {area}",
    "build a {kind} on {area}": "построить: {kind}, {area}",
    "attack {target} from {source}": "атаковать {target} из {source}",
    "end the turn": "закончить ход",
    "roll for the first player": "бросить кубики за первого игрока",
    "{seat} plays first": "первым ходит {seat}",
    "declared row {row} and rolled {dice}: £{money}, {warriors} warriors": "объявил ряд {row}, выбросил {dice}: £{money}, воинов: {warriors}",
    "placed a warrior on {area}": "поставил воина: {area}",
    "the warrior besieged {seat}'s {kind} on {area}: rolled {die}, needed {need}, taken":
        "воин осадил {kind} ({seat}) на {area}: выпало {die}, нужно {need}, взято",
    "the warrior besieged {seat}'s {kind} on {area}: rolled {die}, needed {need}, held":
        "воин осадил {kind} ({seat}) на {area}: выпало {die}, нужно {need}, устояло",
    "built a {kind} on {area} for £{cost}": "построил: {kind}, {area} за £{cost}",
    "attacked {target} from {source}: rolled {die}, needed {need}, won": "атаковал {target} из {source}: выпало {die}, нужно {need}, победа",
    "attacked {target} from {source}: rolled {die}, needed {need}, lost": "атаковал {target} из {source}: выпало {die}, нужно {need}, поражение",
    "assaulted Mordred's castle from {source}: rolled {die}, needed {need}, won":
        "штурмовал замок Мордреда из {source}: выпало {die}, нужно {need}, победа",
    "assaulted Mordred's castle from {source}: rolled {die}, needed {need}, lost":
        "штурмовал замок Мордреда из {source}: выпало {die}, нужно {need}, поражение",
    "ended the turn": "закончил ход",
    "the game is over: {reason}": "игра окончена: {reason}",
    "every warrior of Mordred is on the map": "все воины Мордреда на карте",
    "a player has every building of one type on the map": "у игрока на карте все постройки одного типа",
    "a marker cannot move along Mordred's road as it must": "маркер не может сдвинуться по дороге Мордреда",
    "Mordred is beaten in his castle": "Мордред побеждён в своём замке",
    # why the match ended, as the rules word it (Outcome.reason; see outcome_text)
    "{why}; {side} wins ({warriors} warriors against {buildings} buildings); seat {seat} wins with the {label}": "{why}; побеждает {side} (воинов: {warriors}, построек: {buildings}); побеждает место {seat}: {label}",
    "{why}; {side} wins ({warriors} warriors against {buildings} buildings); a draw between seats {seats}": "{why}; побеждает {side} (воинов: {warriors}, построек: {buildings}); ничья между местами {seats}",
    "Mordred": "Мордред",
    "King Arthur": "король Артур",
    "a marker could not move along Mordred's road": "маркер не смог сдвинуться по дороге Мордреда",
    "Mordred was beaten in his castle": "Мордред побеждён в своём замке",
    "the game ended": "игра окончена",
    "least advanced on the road": "меньше всех продвинулось по дороге",
    "most building points": "больше всех очков за постройки",
    "most money": "больше всех денег",
}

#: What an area, a building, a warrior or a row of the Money table does, one sentence each, by the name the board
#: knows it by: the browser board's zoom.
ABOUT = {
    "forest": "Forest: villages £3, towns £6, castles £10 here.",
    "mountains": "Mountains: villages £4, castles £8, no towns; buildings here hold better against sieges.",
    "castle-area": "Mordred's castle on Anglesey: his warriors spread from here; attack it from a building next to it "
                   "(£2, a 6 wins the game).",
    "border": "On the border with England (thick black edge): the first building goes here, and building here costs "
              "no extra £1.",
    "village": "A village: 1 point.",
    "town": "A town: 3 points.",
    "castle": "A castle: 5 points; the best base to attack warriors from.",
    "warrior": "One of Mordred's warriors: attack it from a building next to it (£2 and a roll); a win removes it and "
               "moves your marker one space back along the road.",
    "row": "A row of the Money table: declare it and roll two dice; each die pays the cell of its face. A black cell "
           "also brings as many of Mordred's warriors and moves your marker along the road.",
}

ABOUT_RU = {
    ABOUT["forest"]: "Лес: деревня £3, город £6, замок £10.",
    ABOUT["mountains"]: "Горы: деревня £4, замок £8, городов нет; постройки здесь лучше держат осаду.",
    ABOUT["castle-area"]: "Замок Мордреда на Англси: отсюда расходятся его воины; штурмуйте его из соседней постройки "
                          "(£2, шестёрка выигрывает игру).",
    ABOUT["border"]: "На границе с Англией (толстая чёрная кромка): здесь ставится первая постройка, и строить здесь "
                     "можно без доплаты £1.",
    ABOUT["village"]: "Деревня: 1 очко.",
    ABOUT["town"]: "Город: 3 очка.",
    ABOUT["castle"]: "Замок: 5 очков; лучшая опора для атаки на воинов.",
    ABOUT["warrior"]: "Воин Мордреда: атакуйте его из соседней постройки (£2 и бросок); победа снимает его и сдвигает "
                      "вашу фишку на клетку назад по дороге.",
    ABOUT["row"]: "Ряд денежной таблицы: объявите его и бросьте два кубика; каждый кубик платит клетку своей грани. "
                  "Чёрная клетка ещё приводит столько же воинов Мордреда и двигает вашу фишку по дороге.",
}

TEXTS = Texts({"ru": {**_RU, **ABOUT_RU}})

#: The words of the table's text picture (render.py) in Russian: its lines, key and statuses.
_PICTURE_RU = {
    "MORDRED": "МОРДРЕД", "f": "л", "m": "г", "W": "В", "V": "Д", "T": "Г", "C": "З", "D": "Д",
    "key: f forest, m mountains, * black-bordered (the border with England), . empty area,":
        "ключ: л лес, г горы, * в чёрной рамке (граница с Англией), . пустая область,",
    "     W a warrior of Mordred, V/T/C a village/town/castle with its owner's seat (T2: a town of seat 2),":
        "     В воин Мордреда, Д/Г/З деревня/город/замок с местом владельца (Г2: город места 2),",
    "     CAS MORDRED: Mordred himself in his castle on Anglesey.": "     CAS МОРДРЕД: сам Мордред в своём замке на Англси.",
    "     Areas side by side are neighbours; so are those joined by / or \\ ({pairs}).":
        "     Области рядом соседние; соседние и те, что соединены / или \\ ({pairs}).",
    "road: D the dragon space (0), - a space, the seat's number its marker; pieces left: V villages, T towns, C castles":
        "дорога: Д клетка дракона (0), - клетка, номер места его фишка; фишек осталось: Д деревень, Г городов, З замков",
    "Mordred's road: spaces -{back} .. 0 (dragon) .. +{forward}": "Дорога Мордреда: клетки -{back} .. 0 (дракон) .. +{forward}",
    "  seat {n}: [{track}] {pos}": "  место {n}: [{track}] {pos}",
    "Mordred, {n} players": "Мордред, игроков: {n}",
    " - game over ({end})": " - игра окончена ({end})",
    "warriors": "воины", "buildings": "постройки", "road": "дорога", "mordred": "Мордред",
    " - turn {turn}, seat {n} to {phase}": " - ход {turn}, место {n}: {phase}",
    "setup": "подготовка", "roll": "бросок", "place": "расстановка", "spend": "траты", "over": "конец",
    " ({n} warrior(s) in hand)": " (воинов в руке: {n})",
    "Mordred: {warriors} warriors on the map, {supply} in his supply; {buildings} buildings on the map":
        "Мордред: воинов на карте {warriors}, в запасе {supply}; построек на карте {buildings}",
    " (you)": " (вы)",
    "  seat {n}{you}: £{money}, {points} point, pieces left {left}": "  место {n}{you}: £{money}, очков {points}, фишек осталось {left}",
    "  seat {n}{you}: £{money}, {points} points, pieces left {left}": "  место {n}{you}: £{money}, очков {points}, фишек осталось {left}",
    "; every {kind} on the map (the game ends at the start of its turn if it still has)":
        "; все постройки «{kind}» на карте (игра кончится в начале его хода, если так и останется)",
    "last roll: seat {n} row {row} dice {a} {b}: £{money}, {warriors} warrior(s)":
        "последний бросок: место {n}, ряд {row}, кубики {a} {b}: £{money}, воинов {warriors}",
}
#: The text picture's catalog (``render.render(..., lang=)``); the game's own words come from :data:`TEXTS`.
PICTURE = Texts({"ru": _PICTURE_RU})
_ENDS = {
    End.WARRIORS: "every warrior of Mordred is on the map",
    End.BUILDINGS: "a player has every building of one type on the map",
    End.ROAD: "a marker cannot move along Mordred's road as it must",
    End.MORDRED: "Mordred is beaten in his castle",
}


def area(lang: str, code: str) -> str:
    """An area of the map by its code, as its name reads."""
    found = AREAS.get(code)
    return code if found is None else TEXTS.word(lang, found.name)


def _seat(lang: str, seat: int) -> str:
    return TEXTS(lang, "seat {n}", n=seat)


def offer(command: Command, lang: str) -> str:
    """A legal command as its button reads."""
    _ = TEXTS
    match command:
        case Roll(row=row):
            return _(lang, "declare row {row} and roll", row=row.value)
        case Place(area=a):
            return _(lang, "put a warrior on {area}", area=area(lang, a))
        case Build(area=a, kind=kind):
            return _(lang, "build a {kind} on {area}", kind=_.word(lang, kind.value), area=area(lang, a))
        case Attack(source=s, target=t):
            return _(lang, "attack {target} from {source}", target=area(lang, t), source=area(lang, s))
        case EndTurn():
            return _(lang, "end the turn")
        case Start():
            return _(lang, "roll for the first player")
    return type(command).__name__


def tell(event: Event, lang: str) -> str | None:
    """One event as a clause of a record's sentence."""
    _ = TEXTS
    match event:
        case FirstPlayerRolled(first=first):
            return _(lang, "{seat} plays first", seat=_seat(lang, first))
        case Rolled(row=row, dice=dice, money=money, warriors=w):
            return _(lang, "declared row {row} and rolled {dice}: £{money}, {warriors} warriors", row=row.value,
                     dice=" + ".join(map(str, dice)), money=money, warriors=w)
        case WarriorPlaced(area=a):
            return _(lang, "placed a warrior on {area}", area=area(lang, a))
        case Siege(area=a, owner=owner, kind=kind, die=die, need=need, success=ok):
            msg = "the warrior besieged {seat}'s {kind} on {area}: rolled {die}, needed {need}, " + ("taken" if ok else "held")
            return _(lang, msg, seat=_seat(lang, owner), kind=_.word(lang, kind.value), area=area(lang, a), die=die,
                     need=need)
        case Built(area=a, kind=kind, cost=cost):
            return _(lang, "built a {kind} on {area} for £{cost}", kind=_.word(lang, kind.value), area=area(lang, a),
                     cost=cost)
        case Attacked(source=s, target=t, die=die, need=need, success=ok):
            msg = "attacked {target} from {source}: rolled {die}, needed {need}, " + ("won" if ok else "lost")
            return _(lang, msg, target=area(lang, t), source=area(lang, s), die=die, need=need)
        case Assaulted(source=s, die=die, need=need, success=ok):
            msg = "assaulted Mordred's castle from {source}: rolled {die}, needed {need}, " + ("won" if ok else "lost")
            return _(lang, msg, source=area(lang, s), die=die, need=need)
        case TurnEnded():
            return _(lang, "ended the turn")
        case GameEnded(reason=end, detail=detail):
            why = detail if lang == "en" else _.word(lang, _ENDS[end])
            return _(lang, "the game is over: {reason}", reason=why)
    return None


def text(command: Command, events: Sequence[Event] | None = None, lang: str = "en") -> str:
    """A legal command as offered (``events`` None), or a record as a sentence of its events."""
    return told(command, events, lang, offer, tell)


#: The sentences the rules say why the match ended with (``Outcome.reason``), as message ids.
OUTCOMES = (
    "{why}; {side} wins ({warriors} warriors against {buildings} buildings); seat {seat} wins with the {label}",
    "{why}; {side} wins ({warriors} warriors against {buildings} buildings); a draw between seats {seats}",
)
#: Why the match ended (the rules' English ``outcome.reason``) in a language.
outcome_text = rewording(TEXTS, OUTCOMES)


__all__ = ["ABOUT", "ABOUT_RU", "AREAS_RU", "OUTCOMES", "PICTURE", "TEXTS", "area", "offer", "outcome_text", "tell", "text"]
