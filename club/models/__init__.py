"""The club's data: members, sessions (evenings), tables, cuts, washbooks and the ledger.

Two append-only books live here, both zero-sum and both checked by the database:

* the **washbook** (`WashbookLine` + `WashbookEntry`): one line per deal, points per member;
  a line's entries sum to zero (the book's "proof");
* the **ledger** (`Posting` + `Leg`): money, double-entry in the django-hordak manner; a
  posting's legs sum to zero.

A DEFERRABLE INITIALLY DEFERRED PostgreSQL constraint trigger checks each sum at commit
(migration 0002). The header carries a ``sealed`` flag that the services set after
writing the legs; triggers refuse the seal when the sum is not zero and refuse any change
to the legs of a sealed header.

One module a domain; every model is imported here, so the app label (``club``), the
migrations and ``from club.models import X`` are unchanged (issue 54)."""

from club.models.audit import AuditEntry
from club.models.club import Club
from club.models.evenings import Arrival, ClubSession
from club.models.members import HouseRules, Member, SignInLink
from club.models.money import Account, Leg, Posting, Transfer
from club.models.tables import Cut, CutBatch, RedrawDemand, Seat, Substitution, Table, TableEvent
from club.models.variants import default_size, default_variant, variant_choices, variant_seats
from club.models.washbooks import WashbookEntry, WashbookLine

__all__ = [
    "Club",
    "variant_choices",
    "default_variant",
    "variant_seats",
    "default_size",
    "Member",
    "HouseRules",
    "SignInLink",
    "ClubSession",
    "Arrival",
    "Table",
    "Seat",
    "CutBatch",
    "Cut",
    "RedrawDemand",
    "Substitution",
    "TableEvent",
    "WashbookLine",
    "WashbookEntry",
    "Account",
    "Posting",
    "Leg",
    "Transfer",
    "AuditEntry",
]
