"""The club's currency: its symbol and decimal places (settings ``CLUB_CURRENCY_SYMBOL``,
``CLUB_CURRENCY_PLACES``; by default "£" and 2), the one precision every amount of money
is kept in: stakes, the washbook's money, every ledger leg, transfer and balance.

A stake is money a point, so it is a whole number of the currency's smallest unit: then
any difference of points is paid exactly, and nothing is rounded (``ledger``'s rounding
rule is kept for evenings staked before the rule, at four decimal places). The ledger's
columns hold two decimal places, so the currency has 0, 1 or 2.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.utils.formats import get_format
from django.utils.translation import gettext

from club.pages.inputs import parse_money
from club.services.base import ClubError
from club.services.profile import profile

#: The largest stake a point the form and the service accept: with the ledger's twelve
#: digits, a thousand a point keeps an evening of a million points payable.
MAX_STAKE = Decimal(1000)


def places() -> int:
    n = profile().currency_places
    if not 0 <= n <= 2:
        raise ValueError("CLUB_CURRENCY_PLACES must be 0, 1 or 2 (the ledger keeps two)")
    return n


MAX_AMOUNT = Decimal("100000")  # the most one fee or payment may be (a typing slip's guard)


def symbol() -> str:
    return profile().currency_symbol


def unit() -> Decimal:
    """The currency's smallest amount: 0.01 with two places."""
    return Decimal(1).scaleb(-places())


def check_stake(value: object) -> Decimal:
    """The stake as money a point, or :class:`ClubError` (beside the stake's field) when it
    is not a positive whole number of the currency's smallest unit, at most
    :data:`MAX_STAKE`: a stake of 0.0049 would make a 30-point win 0.147, which cannot be
    paid, and two equal losers would pay different amounts."""
    try:
        stake = _plain(value)
    except ValueError as e:
        raise ClubError(
            gettext("the stake must be written like 0.05: digits and a point only"), field="stake"
        ) from e
    u = unit()
    if stake <= 0:
        raise ClubError(
            gettext("the stake must be at least %(shown)s a point") % {"shown": shown_to_reader(u)},
            field="stake",
        )
    if stake != stake.quantize(u):
        raise ClubError(
            gettext(
                "the stake must be a whole number of %(shown)s: the club's money keeps %(places)s decimal places, and a one-point difference at %(stake)s could not be paid in it"
            )
            % {"shown": shown_to_reader(u), "places": places(), "stake": stake},
            field="stake",
        )
    if stake > MAX_STAKE:
        raise ClubError(
            gettext("the stake must be at most %(shown)s a point")
            % {"shown": shown_to_reader(MAX_STAKE)},
            field="stake",
        )
    return stake.quantize(u)


def check_amount(value: object, *, field: str, what: str, zero: bool = False) -> Decimal:
    """An amount of money (a fee, a payment) as a whole number of the currency's smallest
    unit, at most :data:`MAX_AMOUNT`; more than nothing unless ``zero`` allows nothing.
    Anything else is :class:`ClubError` beside ``field``, saying why."""
    try:
        amount = _plain(value)
    except ValueError as e:
        raise ClubError(
            gettext("%(what)s must be written like %(example)s: digits and a point only")
            % {"what": what, "example": example()},
            field=field,
        ) from e
    u = unit()
    if amount < 0 or (amount == 0 and not zero):
        raise ClubError(
            gettext("%(what)s must be nothing or more") % {"what": what}
            if zero
            else gettext("%(what)s must be at least %(shown)s")
            % {"what": what, "shown": shown_to_reader(u)},
            field=field,
        )
    if amount != amount.quantize(u):
        raise ClubError(
            gettext(
                "%(what)s must be a whole number of %(shown)s (the club's money keeps %(places)s decimal places)"
            )
            % {"what": what, "shown": shown_to_reader(u), "places": places()},
            field=field,
        )
    if amount > MAX_AMOUNT:
        raise ClubError(
            gettext("%(what)s must be at most %(shown)s")
            % {"what": what, "shown": shown_to_reader(MAX_AMOUNT)},
            field=field,
        )
    return amount.quantize(u)


def _plain(value: object) -> Decimal:
    """A number of money from a request or a service's caller, read strictly
    (:func:`club.pages.inputs.parse_money`: ASCII digits and a point, no exponent, NaN or
    infinity); a leading minus is read so that the caller can say "at least". Up to six
    decimal places are read, so that a stake of 0.0049 is told why it cannot be paid
    rather than that it is no number."""
    if isinstance(value, bool) or not isinstance(value, (str, int, Decimal)):
        raise ValueError(f"{type(value).__name__} is not an amount")
    text = str(value).strip()
    if isinstance(value, str) and text.count(",") == 1 and "." not in text and writes_comma():
        text = text.replace(",", ".")  # "0,50" from a reader whose language writes it so
    negative = text.startswith("-")
    amount = parse_money(text[1:] if negative else text, places=6)
    return -amount if negative else amount


def writes_comma() -> bool:
    """Whether the reader's language writes a decimal comma (Spanish: "0,50"): an amount
    typed so is read as the point's."""
    return get_format("DECIMAL_SEPARATOR") == ","


def example() -> str:
    """An amount as a member would type it: "2.50" (two places), "3" (none); "2,50" for a
    reader whose language writes a decimal comma."""
    return typed(Decimal(250).scaleb(-2).quantize(unit()))


def typed(amount: Decimal) -> str:
    """An amount as its reader types it in a form (no symbol, no grouping): "0.50", or
    "0,50" for a reader whose language writes a decimal comma (:func:`_plain` reads both
    back). A form's initial value, so that it reads as the page's other amounts do."""
    text = f"{amount:f}"
    return text.replace(".", ",") if writes_comma() else text


def default_fees() -> tuple[Decimal, Decimal]:
    """The club's table fees for a member and a guest, from the settings (0: none)."""
    return (
        Decimal(str(getattr(settings, "CLUB_TABLE_FEE_MEMBER", "0"))),
        Decimal(str(getattr(settings, "CLUB_TABLE_FEE_GUEST", "0"))),
    )


def shown_to_reader(amount: Decimal | int) -> str:
    """An amount as a page shows it to its reader (issue 82): :func:`shown`, its digits in
    the reader's language ("£1.234,50" in Spanish). Never for stored words (the audit's,
    a message kept) or a CSV value, which stay as :func:`shown` writes them."""
    from django.utils.formats import number_format

    value = Decimal(amount)
    exact = value.quantize(unit())
    sign = "-" if value < 0 else ""
    if exact != value:
        digits = f"{abs(value).normalize():f}"
        places_shown = len(digits.partition(".")[2])
    else:
        value, places_shown = exact, places()
    return sign + symbol() + number_format(abs(value), places_shown, force_grouping=True)


def shown(amount: Decimal | int) -> str:
    """An amount with the currency: "£1.50", "-£0.30" (a minus sign before the symbol).

    >>> shown(Decimal("1.5")), shown(Decimal("-0.3")), shown(0), shown(Decimal("0.0125"))
    ('£1.50', '-£0.30', '£0.00', '£0.0125')
    """
    value = Decimal(amount)
    exact = value.quantize(unit())
    if exact != value:  # a stake of an evening staked at four places before the rule
        sign = "-" if value < 0 else ""
        return f"{sign}{symbol()}{abs(value).normalize():,f}"
    sign = "-" if exact < 0 else ""
    return f"{sign}{symbol()}{abs(exact):,.{places()}f}"
