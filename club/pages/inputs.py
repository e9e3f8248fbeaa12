"""One strict reading of every number a request carries (issue 53, item 3).

``str.isdigit`` admits "²" and "٣" (which ``int`` then refuses, or reads as another
number), and ``Decimal`` admits "1e30", "NaN" and "-0" (whose ``quantize`` then raises).
A request's ids are read by :func:`parse_id` (ASCII digits, within the database's
bigint) and its money by :func:`parse_money` (a plain decimal in ASCII with at most the
currency's places): anything else is ``None`` or a :class:`ValueError` saying why, so a
view answers 400 or a message beside the field, never a 500.

>>> parse_id("12"), parse_id("²"), parse_id("0x1"), parse_id(" 7"), parse_id("9" * 30)
(12, None, None, None, None)
>>> parse_money("2.50", places=2), parse_money("3", places=2)
(Decimal('2.50'), Decimal('3'))
>>> parse_money("1e30", places=2)
Traceback (most recent call last):
...
ValueError: '1e30' is not an amount like 2.50 (digits, a point, up to 2 decimal places)
"""

from __future__ import annotations

import re
from decimal import Decimal

#: The largest id PostgreSQL's bigint holds: a larger one is no row, not an overflow.
MAX_ID = 2**63 - 1

_ID = re.compile(r"[0-9]{1,19}")
# At most 15 digits before the point: any limit the club sets (at most 100,000) is far
# below, and the value stays exact in a Decimal of the default 28 digits.
_MONEY = re.compile(r"([0-9]{1,15})(?:\.([0-9]*))?|\.([0-9]+)")


def parse_whole(text: object) -> int | None:
    """A whole number from 0 written in ASCII digits (a seat, a version, a count), at
    most a bigint; None for anything else. A JSON body's whole number is taken as it is."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    elif isinstance(text, str) and _ID.fullmatch(text):
        value = int(text)
    else:
        return None
    if value < 0:
        return None
    return value if value <= MAX_ID else None


def parse_id(text: object) -> int | None:
    """A positive id written in ASCII digits, or None (anything else, 0, or above a
    bigint: no row has such an id)."""
    return parse_whole(text) or None


def parse_money(text: str, *, places: int) -> Decimal:
    """A non-negative amount written plainly ("2.50", "3", "0.5", ".5"), with at most
    ``places`` decimal places; surrounding spaces are allowed. ValueError otherwise: signs,
    exponents, NaN, infinity, thousands separators and non-ASCII digits."""
    given = text.strip()
    match = _MONEY.fullmatch(given)
    decimals = (match.group(2) or match.group(3) or "") if match else ""
    if match is None or len(decimals) > places:
        what = f"up to {places} decimal places" if places else "no decimal places"
        raise ValueError(
            f"{given[:20]!r} is not an amount like {'2.50' if places else '3'} "
            f"(digits{', a point' if places else ''}, {what})"
        )
    return Decimal(given if not given.startswith(".") else "0" + given)
