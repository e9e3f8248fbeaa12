"""The engine's two exceptions (after python-chess's InvalidMoveError/IllegalMoveError).

>>> issubclass(InvalidActionError, ValueError), issubclass(IllegalActionError, ValueError)
(True, True)
"""

from __future__ import annotations


class InvalidActionError(ValueError):
    """Malformed input: bad card notation, unknown action type, wrong shape of JSON."""


class IllegalActionError(ValueError):
    """Well-formed but not allowed now. ``law`` names the law it breaks (``"L16"``, ...).

    >>> e = IllegalActionError("round-the-corner sequence", law="L16")
    >>> str(e), e.law
    ('round-the-corner sequence (L16)', 'L16')
    """

    def __init__(self, reason: str, *, law: str) -> None:
        self.reason = reason
        self.law = law
        super().__init__(f"{reason} ({law})")
