"""What the server accepts of a client's numbers and text: strict, bounded, and checked before anything is made.

Every number a client writes in a query or a path is ASCII digits only and
bounded (``"²".isdigit()`` is true in Python, and ``int`` of twenty nines
overflows a database column); every string of a JSON body or message can be
encoded as UTF-8 (a ``"\\ud800"`` escape decodes to a lone surrogate that
cannot); a name is NFC-normalised and holds no format, control, surrogate,
private-use, unassigned or line-separator character, so what one player
reads is what another typed.

>>> parse_count("12", "limit", 500)
12
>>> parse_count("²", "limit", 500)
Traceback (most recent call last):
...
meeple.server.protocol.ServerError: limit: an integer 0..500 in ASCII digits
>>> clean_name("Ame\\u0301lie", "name", 40)
'Amélie'
>>> clean_name("evil\\u202egnp.exe", "name", 40)
Traceback (most recent call last):
...
meeple.server.protocol.ServerError: name: no format or control characters (U+202E)
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from .protocol import ErrorCode, ServerError

#: The largest offset a listing takes (a 32-bit signed integer: every store's column holds it).
MAX_OFFSET = 2**31 - 1
#: Unicode categories a name may not hold: format (bidi controls, zero-width), control, surrogate,
#: private use, unassigned, and the line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cf", "Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
_DIGITS = frozenset("0123456789")


def parse_count(text: str, name: str, high: int, *, low: int = 0, code: ErrorCode = ErrorCode.BAD_MESSAGE) -> int:
    """``text`` as an integer ``low..high`` written in ASCII digits, else ``code`` naming ``name``."""
    if not text or len(text) > len(str(high)) or not _DIGITS.issuperset(text) or not low <= int(text) <= high:
        raise ServerError(code, f"{name}: an integer {low}..{high} in ASCII digits")
    return int(text)


def check_encodable(value: Any, what: str = "the message") -> None:
    """Refuse (BAD_JSON) a decoded JSON value holding a string that cannot be encoded as UTF-8 (a lone surrogate)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ServerError(ErrorCode.BAD_JSON, f"{what} holds a string that is not Unicode text (a lone surrogate)") from None
    except (ValueError, TypeError, RecursionError):  # not from json.loads; nothing to check
        return


def json_object(data: bytes | str, what: str = "the request body") -> dict[str, Any]:
    """``data`` decoded as a JSON object whose strings are all Unicode text, else BAD_JSON naming ``what``."""
    try:
        body = json.loads(data)
    except (ValueError, RecursionError):
        raise ServerError(ErrorCode.BAD_JSON, f"{what} is not JSON") from None
    if not isinstance(body, dict):
        raise ServerError(ErrorCode.BAD_JSON, f"{what} is a JSON object")
    check_encodable(body, what)
    return body


def clean_name(text: Any, name: str, limit: int, *, code: ErrorCode = ErrorCode.BAD_MESSAGE) -> str:
    """``text`` NFC-normalised, checked to be 1..``limit`` characters of visible text, else ``code``."""
    if not isinstance(text, str):
        raise ServerError(code, f"{name}: a string")
    if len(text) > 4 * limit:  # refuse before normalising a long string
        raise ServerError(code, f"{name}: 1-{limit} characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ServerError(code, f"{name}: not Unicode text (a lone surrogate)") from None
    clean = unicodedata.normalize("NFC", text)
    if not 0 < len(clean) <= limit:
        raise ServerError(code, f"{name}: 1-{limit} characters")
    for c in clean:
        if unicodedata.category(c) in REFUSED_CATEGORIES:
            raise ServerError(code, f"{name}: no format or control characters (U+{ord(c):04X})")
    if not clean.strip():
        raise ServerError(code, f"{name}: not only spaces")
    return clean
