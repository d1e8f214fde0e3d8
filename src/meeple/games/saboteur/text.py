"""What a Saboteur player reads, in English and Russian: each command offered and each record as a sentence.

Built only from what it is handed (a legal command, or a record's command and
events as one seat saw them, secret fields None), so it can tell nothing the
seat may not know.

>>> from meeple.games.saboteur.commands import Rockfall
>>> text(Rockfall(card=0, col=2, row=1), None, "ru")
'обвал на (2, 1)'
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.engine import Command, Event
from meeple.engine.text import Texts, rewording, told

from .commands import (
    BreakTool,
    ClearFront,
    DealRound,
    Discard,
    Inspect,
    PeekGoal,
    PlayPath,
    RepairTool,
    Rockfall,
    SettleRound,
    Steal,
    SwapHand,
    TakeGold,
    TargetAction,
)
from .data import KINDS, GoalKind, Role
from .events import (
    ActionPlayed,
    CardsDiscarded,
    FrontCleared,
    GoalPeeked,
    GoalRevealed,
    GoldPaid,
    GoldTaken,
    HandsSwapped,
    HatSwapped,
    PathPlayed,
    PathRemoved,
    PayoutDone,
    RoleInspected,
    RoundDealt,
    RoundEnded,
    Stolen,
    ToolBroken,
    ToolRepaired,
)

#: The card names (as data.KINDS spells them), the goals, tools, fronts, roles and teams in Russian.
NAMES_RU = {
    "blue-door-curve-b": "синяя дверь, поворот Б", "blue-door-horizontal": "синяя дверь, горизонталь",
    "blue-door-vertical": "синяя дверь, вертикаль", "bridge": "мост", "broken-cart": "сломанная тележка",
    "broken-lantern": "сломанный фонарь", "broken-pickaxe": "сломанная кирка", "crossroads": "перекрёсток",
    "crystal-crossroads": "перекрёсток с кристаллом",
    "crystal-straight-horizontal-stub-n": "кристалл, горизонталь с тупиком на север",
    "crystal-stub-horizontal": "кристалл, тупик по горизонтали",
    "crystal-stub-vertical": "кристалл, тупик по вертикали", "crystal-t-horizontal": "кристалл, Т по горизонтали",
    "crystal-t-horizontal-stub-s": "кристалл, Т с тупиком на юг", "crystal-t-vertical": "кристалл, Т по вертикали",
    "crystal-t-vertical-stub-w": "кристалл, Т с тупиком на запад", "curve-a": "поворот А", "curve-b": "поворот Б",
    "dead-crossroads": "тупик-перекрёсток", "dead-curve-a": "тупик-поворот А", "dead-curve-b": "тупик-поворот Б",
    "dead-straight-horizontal": "тупик по горизонтали", "dead-straight-vertical": "тупик по вертикали",
    "dead-stub-horizontal": "короткий тупик по горизонтали", "dead-stub-vertical": "короткий тупик по вертикали",
    "dead-t-horizontal": "тупик-Т по горизонтали", "dead-t-vertical": "тупик-Т по вертикали",
    "double-curve": "двойной поворот", "free-at-last": "свобода", "green-door-curve-a": "зелёная дверь, поворот А",
    "green-door-horizontal": "зелёная дверь, горизонталь",
    "green-door-vertical-stub-w": "зелёная дверь, вертикаль с тупиком на запад", "hands-off": "руки прочь",
    "inspection": "проверка", "ladder-curve-a": "лестница, поворот А", "ladder-curve-b": "лестница, поворот Б",
    "ladder-stub-horizontal": "лестница, тупик по горизонтали", "ladder-stub-vertical": "лестница, тупик по вертикали",
    "map": "карта", "repair-cart": "починка тележки", "repair-lantern": "починка фонаря",
    "repair-lantern-cart": "починка фонаря или тележки", "repair-pickaxe": "починка кирки",
    "repair-pickaxe-cart": "починка кирки или тележки", "repair-pickaxe-lantern": "починка кирки или фонаря",
    "rockfall": "обвал", "straight-horizontal": "прямой по горизонтали", "straight-vertical": "прямой по вертикали",
    "swap-your-hand": "обмен картами", "swap-your-hats": "смена шляп", "t-horizontal": "Т по горизонтали",
    "t-vertical": "Т по вертикали", "theft": "кража", "trapped": "в ловушке",
    "top": "верхняя", "middle": "средняя", "bottom": "нижняя",
    "pickaxe": "кирка", "lantern": "фонарь", "cart": "тележка",
    "gold": "золото", "coal-a": "уголь", "coal-b": "уголь",
    "miner": "гном-золотоискатель", "saboteur": "вредитель", "green-miner": "зелёный гном", "blue-miner": "синий гном",
    "boss": "босс", "profiteer": "спекулянт", "geologist": "геолог",
    "miners": "золотоискатели", "saboteurs": "вредители", "green": "зелёные", "blue": "синие",
}

_RU = {
    **NAMES_RU,
    "seat {n}": "место {n}",
    "lay {card} at ({col}, {row})": "выложить «{card}» на ({col}, {row})",
    "lay {card} at ({col}, {row}), turned": "выложить «{card}» на ({col}, {row}), перевернув",
    "{card} on {seat}": "«{card}»: {seat}",
    "repair {seat}'s {tool} with {card}": "починить: {tool}, {seat} («{card}»)",
    "rockfall at ({col}, {row})": "обвал на ({col}, {row})",
    "look at the {goal} goal with a map": "посмотреть {goal} цель картой",
    "pass, discarding face down": "пас: сбросить карту рубашкой вверх",
    "pass, discarding {cards}": "пас: сбросить {cards}",
    "discard two cards to remove your {front}": "сбросить две карты, чтобы убрать «{front}»",
    "discard {cards} to remove your {front}": "сбросить {cards}, чтобы убрать «{front}»",
    "swap your hand with {seat}": "обменяться картами: {seat}",
    "look at {seat}'s dwarf card": "посмотреть карту гнома: {seat}",
    "take a gold card": "взять карту золота",
    "take a gold card worth {value}": "взять карту золота на {value}",
    "steal a gold piece from {seat}": "украсть самородок: {seat}",
    "deal a round": "раздать раунд",
    "pay the round": "рассчитать раунд",
    "round {n} is dealt; {seat} starts": "роздан раунд {n}; начинает {seat}",
    "you are a {role}": "вы — {role}",
    "laid {card} at ({col}, {row})": "выложил «{card}» на ({col}, {row})",
    "the {goal} goal is turned: {kind}": "открыта {goal} цель: {kind}",
    "broke {seat}'s tool with {card}": "сломал инструмент: {seat} («{card}»)",
    "repaired {seat}'s {tool}": "починил: {tool}, {seat}",
    "removed the card at ({col}, {row}) with a rockfall": "убрал обвалом карту на ({col}, {row})",
    "looked at the {goal} goal": "посмотрел {goal} цель",
    "looked at the {goal} goal: {kind}": "посмотрел {goal} цель: {kind}",
    "passed, discarding a card face down": "спасовал, сбросив карту рубашкой вверх",
    "passed, discarding {n} cards face down": "спасовал, сбросив карт рубашкой вверх: {n}",
    "discarded two cards to remove {front}": "сбросил две карты и убрал «{front}»",
    "played {card} on {seat}": "сыграл «{card}»: {seat}",
    "swapped hands with {seat}": "обменялся картами: {seat}",
    "looked at {seat}'s dwarf card": "посмотрел карту гнома: {seat}",
    "looked at {seat}'s dwarf card: {role}": "посмотрел карту гнома: {seat} — {role}",
    "{seat} put away the dwarf card and took a new one": "{seat}: новая карта гнома",
    "the round is over: the {team} won": "раунд окончен: победили {team}",
    "took a gold card": "взял карту золота",
    "took a gold card worth {value}": "взял карту золота на {value}",
    "{seat} was paid {amount} gold": "{seat}: получено золота {amount}",
    "{seat} was paid gold": "{seat}: получено золото",
    "stole a gold piece from {seat}": "украл самородок: {seat}",
    "the game is over": "игра окончена",
    "the round is paid": "раунд рассчитан",
    # why the match ended, as the rules word it (Outcome.reason; see outcome_text)
    "after three rounds seat {seat} holds the most gold ({n} nuggets)": "после трёх раундов больше всех золота у места {seat} (самородков: {n})",
    "after three rounds {seats} share the most gold ({n} nuggets)": "после трёх раундов больше всех золота поровну у: {seats} (самородков: {n})",
}

#: What a card, a goal or the start does, one sentence each, by the name the board knows it by (a card kind's
#: name in data.KINDS, a front's value, "path", "start", "goal", "gold", "coal"): the browser board's zoom.
ABOUT = {
    "path": "A path card: lay it next to the maze so every edge matches its neighbours and a tunnel joins the start; "
            "it may be turned upside down. A dark dot is a dead end.",
    "start": "The start: every tunnel must lead back here to count.",
    "goal": "A goal card, face down: the gold or coal lies under it. A tunnel that reaches it turns it over; "
            "a map lets you look first.",
    "gold": "The gold: the tunnel reached it, and the miners win the round.",
    "coal": "Coal: the tunnel reached it, but there is no gold here; the tunnel may go on through it.",
    "broken-pickaxe": "Broken pickaxe: play it on a player; they cannot lay path cards until the pickaxe is repaired.",
    "broken-lantern": "Broken lantern: play it on a player; they cannot lay path cards until the lantern is repaired.",
    "broken-cart": "Broken cart: play it on a player; they cannot lay path cards until the cart is repaired.",
    "repair-pickaxe": "Repair: mends a player's broken pickaxe.",
    "repair-lantern": "Repair: mends a player's broken lantern.",
    "repair-cart": "Repair: mends a player's broken cart.",
    "repair-pickaxe-lantern": "Repair: mends a player's broken pickaxe or lantern (one of the two).",
    "repair-pickaxe-cart": "Repair: mends a player's broken pickaxe or cart (one of the two).",
    "repair-lantern-cart": "Repair: mends a player's broken lantern or cart (one of the two).",
    "rockfall": "Rockfall: remove one path card from the maze (never the start or a goal).",
    "map": "Map: look at one face-down goal card in secret.",
    "theft": "Theft: lay it in front of yourself; at payout you steal one gold nugget from another player.",
    "hands-off": "Hands off: removes a Theft card from any player.",
    "swap-your-hand": "Swap your hand: swap the cards in your hand with another player's.",
    "inspection": "Inspection: look at another player's dwarf card in secret.",
    "swap-your-hats": "Swap your hats: a player puts their dwarf card away and takes a new one at random.",
    "trapped": "Trapped: play it on another player; they cannot lay path cards and get no gold this round.",
    "free-at-last": "Free at last: removes a Trapped card from any player.",
}

ABOUT_RU = {
    ABOUT["path"]: "Карта тоннеля: выложите её рядом с лабиринтом так, чтобы все стороны совпали с соседями, а проход "
                   "соединился со стартом; её можно перевернуть. Тёмная точка — тупик.",
    ABOUT["start"]: "Старт: каждый тоннель должен вести сюда, чтобы считаться.",
    ABOUT["goal"]: "Карта-цель рубашкой вверх: под ней золото или уголь. Тоннель, дошедший до неё, открывает её; "
                   "карта позволяет посмотреть заранее.",
    ABOUT["gold"]: "Золото: тоннель дошёл до него, раунд выиграли золотоискатели.",
    ABOUT["coal"]: "Уголь: тоннель дошёл, но золота здесь нет; тоннель может идти дальше через него.",
    ABOUT["broken-pickaxe"]: "Сломанная кирка: сыграйте на игрока; он не может выкладывать карты тоннелей, пока кирку "
                             "не починят.",
    ABOUT["broken-lantern"]: "Сломанный фонарь: сыграйте на игрока; он не может выкладывать карты тоннелей, пока фонарь "
                             "не починят.",
    ABOUT["broken-cart"]: "Сломанная тележка: сыграйте на игрока; он не может выкладывать карты тоннелей, пока тележку "
                          "не починят.",
    ABOUT["repair-pickaxe"]: "Починка: чинит сломанную кирку игрока.",
    ABOUT["repair-lantern"]: "Починка: чинит сломанный фонарь игрока.",
    ABOUT["repair-cart"]: "Починка: чинит сломанную тележку игрока.",
    ABOUT["repair-pickaxe-lantern"]: "Починка: чинит сломанную кирку или фонарь игрока (что-то одно).",
    ABOUT["repair-pickaxe-cart"]: "Починка: чинит сломанную кирку или тележку игрока (что-то одно).",
    ABOUT["repair-lantern-cart"]: "Починка: чинит сломанный фонарь или тележку игрока (что-то одно).",
    ABOUT["rockfall"]: "Обвал: уберите из лабиринта одну карту тоннеля (но не старт и не цель).",
    ABOUT["map"]: "Карта: тайно посмотрите одну закрытую карту-цель.",
    ABOUT["theft"]: "Кража: положите перед собой; при расчёте вы украдёте самородок у другого игрока.",
    ABOUT["hands-off"]: "Руки прочь: снимает карту кражи с любого игрока.",
    ABOUT["swap-your-hand"]: "Обмен картами: поменяйтесь картами на руке с другим игроком.",
    ABOUT["inspection"]: "Проверка: тайно посмотрите карту гнома другого игрока.",
    ABOUT["swap-your-hats"]: "Смена шляп: игрок откладывает свою карту гнома и берёт новую наугад.",
    ABOUT["trapped"]: "В ловушке: сыграйте на другого игрока; он не может выкладывать карты тоннелей и не получает "
                      "золота в этом раунде.",
    ABOUT["free-at-last"]: "Свобода: снимает карту ловушки с любого игрока.",
}

TEXTS = Texts({"ru": {**_RU, **ABOUT_RU}})

#: The words of the table's text picture (render.py) in Russian: its lines, key and statuses.
_PICTURE_RU = {
    "Saboteur ({edition}), {n} players, round {round} of 3, {phase}": "Саботёр ({edition}), игроков: {n}, раунд {round} из 3, {phase}",
    "Deluxe": "Делюкс", "base game": "базовая игра",
    "deal": "раздача", "play": "ход", "settle": "расчёт", "choose": "выбор золота", "theft": "кража", "over": "конец",
    "S start  ? goal  $ gold  c coal  + tunnel  x dead end  # bridge  % double curve  H ladder":
        "S старт  ? цель  $ золото  c уголь  + туннель  x тупик  # мост  % двойной поворот  H лестница",
    "g/b green/blue door  * crystal  | - open edge  : . dead-end stub  (a card may be turned 180 degrees)":
        "g/b зелёная/синяя дверь  * кристалл  | - открытый край  : . тупик  (карту можно повернуть на 180°)",
    ", {n} set aside": ", отложено: {n}",
    ", {n} passed in a row": ", пасов подряд: {n}",
    "pile: {n} cards": "колода: карт {n}",
    " [you: {role}]": " [вы: {role}]",
    "  <- to play": "  <- ходит",
    "seat {n}": "место {n}",
    ": {n} cards": ": карт {n}",
    "  hand {n}: ": "  рука {n}: ",
    "(empty)": "(пусто)",
    "your hand": "ваша рука",
    "goals: {kinds}; gold: {gold}": "цели: {kinds}; золото: {gold}",
    "you saw the {goal} goal: {kind}": "вы видели цель ({goal}): {kind}",
    "you saw seat {n}'s dwarf card: {role}": "вы видели карту гнома места {n}: {role}",
    "you know seat {n} holds {cards}": "вы знаете, что у места {n} на руке: {cards}",
    "you know seat {n} holds at least {sure} of {cards}": "вы знаете, что у места {n} на руке не меньше {sure} из: {cards}",
    "seat {n} put away the dwarf card {role}": "место {n} отложило карту гнома: {role}",
    "your gold: {n}": "ваше золото: {n}",
    "gold on offer: {gold}": "золото на выбор: {gold}",
    "last turns: ": "последние ходы: ",
    "round {n}: {team} won (winners {winners}); roles: {roles}": "раунд {n}: победили {team} (победители {winners}); роли: {roles}",
    "final gold: {gold}": "итоговое золото: {gold}",
    "broken pickaxe": "сломанная кирка", "broken lantern": "сломанный фонарь", "broken cart": "сломанная тележка",
    "trapped": "в ловушке",
    "{who} discarded two cards to clear a card in front": "{who}: сбросило две карты, чтобы убрать карту перед собой",
    "{who} passed": "{who}: пас",
    "{who} laid {card} at {at}": "{who}: «{card}» на {at}",
    "{who} laid {card} at {at} turned": "{who}: «{card}» на {at}, перевёрнута",
    "{who} removed {card} at {at} with a rockfall": "{who}: обвал убрал «{card}» на {at}",
    "{who} played {card} on seat {target}": "{who}: «{card}» на место {target}",
    "{who} played {card}": "{who}: «{card}»",
}
#: The text picture's catalog (``render.render(..., lang=)``); the game's own words come from :data:`TEXTS`.
PICTURE = Texts({"ru": _PICTURE_RU})
GOALS = ("top", "middle", "bottom")


def _name(lang: str, card: int) -> str:
    return TEXTS.word(lang, KINDS[card].name) if 0 <= card < len(KINDS) else str(card)


def _names(lang: str, cards: Sequence[int]) -> str:
    return ", ".join(_name(lang, c) for c in cards)


def _seat(lang: str, seat: int) -> str:
    return TEXTS(lang, "seat {n}", n=seat)


def team_words(lang: str, team: str) -> str:
    """A round's winning team in ``lang``: ``green+blue`` (both colours won) reads as both words."""
    return " + ".join(TEXTS.word(lang, part) for part in team.split("+"))


def _goal(lang: str, goal: int) -> str:
    return TEXTS.word(lang, GOALS[goal]) if 0 <= goal < len(GOALS) else str(goal)


def offer(command: Command, lang: str) -> str:
    """A legal command as its button reads."""
    _ = TEXTS
    match command:
        case PlayPath(card=k, col=c, row=r, rotated=rot):
            msg = "lay {card} at ({col}, {row}), turned" if rot else "lay {card} at ({col}, {row})"
            return _(lang, msg, card=_name(lang, k), col=c, row=r)
        case BreakTool(card=k, target=t) | TargetAction(card=k, target=t):
            return _(lang, "{card} on {seat}", card=_name(lang, k), seat=_seat(lang, t))
        case RepairTool(card=k, target=t, tool=tool):
            return _(lang, "repair {seat}'s {tool} with {card}", seat=_seat(lang, t), tool=_.word(lang, tool.value),
                     card=_name(lang, k))
        case Rockfall(col=c, row=r):
            return _(lang, "rockfall at ({col}, {row})", col=c, row=r)
        case PeekGoal(goal=g):
            return _(lang, "look at the {goal} goal with a map", goal=_goal(lang, g))
        case Discard(cards=None):
            return _(lang, "pass, discarding face down")
        case Discard(cards=cards):
            return _(lang, "pass, discarding {cards}", cards=_names(lang, cards))
        case ClearFront(cards=None, removed=f):
            return _(lang, "discard two cards to remove your {front}", front=_.word(lang, f.value))
        case ClearFront(cards=cards, removed=f):
            return _(lang, "discard {cards} to remove your {front}", cards=_names(lang, cards), front=_.word(lang, f.value))
        case SwapHand(target=t):
            return _(lang, "swap your hand with {seat}", seat=_seat(lang, t))
        case Inspect(target=t):
            return _(lang, "look at {seat}'s dwarf card", seat=_seat(lang, t))
        case TakeGold(value=None):
            return _(lang, "take a gold card")
        case TakeGold(value=v):
            return _(lang, "take a gold card worth {value}", value=v)
        case Steal(target=t):
            return _(lang, "steal a gold piece from {seat}", seat=_seat(lang, t))
        case DealRound():
            return _(lang, "deal a round")
        case SettleRound():
            return _(lang, "pay the round")
    return type(command).__name__


def tell(event: Event, lang: str) -> str | None:
    """One event as a clause of a record's sentence; None for bookkeeping nobody needs to read (a draw, a turn passing)."""
    _ = TEXTS
    match event:
        case RoundDealt(round=n, starter=s):
            return _(lang, "round {n} is dealt; {seat} starts", n=n, seat=_seat(lang, s))
        case PathPlayed(card=k, col=c, row=r):
            return _(lang, "laid {card} at ({col}, {row})", card=_name(lang, k), col=c, row=r)
        case GoalRevealed(goal=g, kind=kind):
            return _(lang, "the {goal} goal is turned: {kind}", goal=_goal(lang, g), kind=_.word(lang, kind.value))
        case ToolBroken(card=k, target=t):
            return _(lang, "broke {seat}'s tool with {card}", seat=_seat(lang, t), card=_name(lang, k))
        case ToolRepaired(target=t, tool=tool):
            return _(lang, "repaired {seat}'s {tool}", seat=_seat(lang, t), tool=_.word(lang, tool.value))
        case PathRemoved(col=c, row=r):
            return _(lang, "removed the card at ({col}, {row}) with a rockfall", col=c, row=r)
        case GoalPeeked(goal=g, kind=None):
            return _(lang, "looked at the {goal} goal", goal=_goal(lang, g))
        case GoalPeeked(goal=g, kind=GoalKind() as kind):
            return _(lang, "looked at the {goal} goal: {kind}", goal=_goal(lang, g), kind=_.word(lang, kind.value))
        case CardsDiscarded(count=1):
            return _(lang, "passed, discarding a card face down")
        case CardsDiscarded(count=n):
            return _(lang, "passed, discarding {n} cards face down", n=n)
        case FrontCleared(removed=f):
            return _(lang, "discarded two cards to remove {front}", front=_.word(lang, f.value))
        case ActionPlayed(card=k, target=t):
            return _(lang, "played {card} on {seat}", card=_name(lang, k), seat=_seat(lang, t))
        case HandsSwapped(target=t):
            return _(lang, "swapped hands with {seat}", seat=_seat(lang, t))
        case RoleInspected(target=t, role=None):
            return _(lang, "looked at {seat}'s dwarf card", seat=_seat(lang, t))
        case RoleInspected(target=t, role=Role() as role):
            return _(lang, "looked at {seat}'s dwarf card: {role}", seat=_seat(lang, t), role=_.word(lang, role.value))
        case HatSwapped(target=t):
            return _(lang, "{seat} put away the dwarf card and took a new one", seat=_seat(lang, t))
        case RoundEnded(team=team):
            return _(lang, "the round is over: the {team} won", team=team_words(lang, team))
        case GoldTaken(value=None):
            return _(lang, "took a gold card")
        case GoldTaken(value=v):
            return _(lang, "took a gold card worth {value}", value=v)
        case GoldPaid(seat=s, amount=None):
            return _(lang, "{seat} was paid gold", seat=_seat(lang, s))
        case GoldPaid(seat=s, amount=a):
            return _(lang, "{seat} was paid {amount} gold", seat=_seat(lang, s), amount=a)
        case Stolen(target=t):
            return _(lang, "stole a gold piece from {seat}", seat=_seat(lang, t))
        case PayoutDone(game_over=True):
            return _(lang, "the game is over")
        case PayoutDone():
            return _(lang, "the round is paid")
    return None


def text(command: Command, events: Sequence[Event] | None = None, lang: str = "en") -> str:
    """A legal command as offered (``events`` None), or a record as a sentence of its events."""
    return told(command, events, lang, offer, tell)


#: The sentences the rules say why the match ended with (``Outcome.reason``), as message ids.
OUTCOMES = (
    "after three rounds seat {seat} holds the most gold ({n} nuggets)",
    "after three rounds {seats} share the most gold ({n} nuggets)",
)
#: Why the match ended (the rules' English ``outcome.reason``) in a language.
outcome_text = rewording(TEXTS, OUTCOMES)


__all__ = ["ABOUT", "ABOUT_RU", "NAMES_RU", "OUTCOMES", "PICTURE", "TEXTS", "offer", "outcome_text", "tell", "text"]
