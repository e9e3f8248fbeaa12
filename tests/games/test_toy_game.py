"""A new game is one module and one registration (issue 26, acceptance).

This module defines a small toy game, Threes, and registers it in a fixture, never at
import time. Two players hold three cards each from a 24-card pack (ace to six); in turn
each draws the top card of the stock and discards one; whoever is left holding three of
a rank wins and the other pays his pips. It is played through the engine, by the random
computer player, at the web table over HTTP (the practice form, the table page, actions,
the live event seen on Redis), and ends in a washbook line that sums to zero, with no
other file of the app changed. docs/adding-a-variant.md walks through it.

Its actions are called "draw" and "discard", like the rummy games': each game's
notation is its own.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from club.infra import redis as club_redis
from club.models import WashbookLine
from games.engine import (
    Action,
    ActionTable,
    Card,
    Hidden,
    IllegalActionError,
    InvalidActionError,
    deal_from_view,
    find_variant,
    make_rules,
    new_deal,
    registered,
)
from games.engine.protocol import Outcome
from games.engine.records import Kind, Record
from games.engine.rules import Rules
from games.engine.snapshot import (
    SNAPSHOT_VERSION,
    SnapshotEquality,
    SnapshotHistory,
    check_version,
    malformed,
    outcome_from_json,
)
from games.engine.variant import Capabilities, DealStart, Law, PlayerRange, Variant
from games.engine.words import LogView
from games.models import Deal
from games.play import reading, services

# --- the game: its notation ---------------------------------------------------------------

THREES_ACTIONS = ActionTable("Threes")


@THREES_ACTIONS.register(
    lambda d: Draw(d["seat"]), lambda seat, args: Draw(seat)
)  # fmt: skip
@dataclass(frozen=True, slots=True)
class Draw(Action):
    type: ClassVar[str] = "draw"

    def to_json(self) -> dict[str, Any]:
        return {"type": "draw", "seat": self.seat, "source": "pack"}

    @property
    def text(self) -> str:
        return f"{self.seat} draw"

    def describe(self) -> str:
        return "draws from the stock"


@THREES_ACTIONS.register(
    lambda d: Discard(d["seat"], Card.from_code(d["card"])),
    lambda seat, args: Discard(seat, Card.from_code(args[0])),
)
@dataclass(frozen=True, slots=True)
class Discard(Action):
    type: ClassVar[str] = "discard"
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "seat": self.seat, "card": self.card.code}

    @property
    def text(self) -> str:
        return f"{self.seat} discard {self.card.code}"

    def describe(self) -> str:
        return f"discards {self.card.code}"


# --- the game: a deal ----------------------------------------------------------------------

DISCARD = "discard one card"


class ThreesDeal(SnapshotEquality, SnapshotHistory):
    """One deal of Threes (implements games.engine.protocol.DealState)."""

    carry_in = 0

    def __init__(
        self, rules: Rules, players: int, dealer: int, pack: list[Card], seed: int | None
    ) -> None:
        self.rules, self.players, self.dealer, self.seed = rules, players, dealer, seed
        self.pack_order = tuple(pack)
        self.version = 0
        self._init_history()
        first = (dealer + 1) % players
        self.hands: list[list[Card]] = [[], []]
        for i in range(6):  # three each, one at a time, from the dealer's left (T1)
            self.hands[(first + i) % 2].append(pack[i])
        self.stock = list(pack[6:])  # top first
        self.turn, self.phase = first, "draw"
        self.log: list[Record] = [Record(None, Kind.DEAL, "T1", number=3)]
        self._outcome: Outcome | None = None

    def to_move(self) -> int | None:
        return None if self._outcome else self.turn

    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.to_move():
            return []
        if self.phase == "draw":
            return [Draw(seat)]
        return [Discard(seat, c) for c in dict.fromkeys(self.hands[seat])]

    def is_legal(self, action: Action) -> bool:
        return isinstance(action, Action) and action in self.legal_actions(action.seat)

    def apply(self, action: Action) -> None:
        if not isinstance(action, Draw | Discard):
            raise InvalidActionError(f"not a Threes action: {action!r}")
        if not self.is_legal(action):
            raise IllegalActionError("not your turn, or not that move now", law="T2")
        hand = self.hands[action.seat]
        if isinstance(action, Draw):
            hand.append(self.stock.pop(0))
            self.phase = DISCARD
        else:
            hand.remove(action.card)
            self.log.append(Record(action.seat, Kind.DISCARD, "T2", (action.card.code,)))
            if len({c.rank for c in hand}) == 1:  # three of a rank: out (T3)
                self._end(action.seat)
            elif not self.stock:
                self._end(None)
            else:
                self.turn, self.phase = 1 - self.turn, "draw"
        self._history.append(action)
        self.version += 1

    def _end(self, winner: int | None) -> None:
        pips = tuple(sum(c.pips for c in h) for h in self.hands)
        pay = [0, 0]
        if winner is not None:  # the loser pays his pips (T4)
            pay[winner], pay[1 - winner] = pips[1 - winner], -pips[1 - winner]
        self._outcome = Outcome(
            "out" if winner is not None else "exhausted", winner,
            tuple(tuple(h) for h in self.hands), pips, tuple(pay),
        )  # fmt: skip
        self.phase = "over"

    def player_view(self, seat: int | None) -> dict[str, Any]:
        out = self._outcome
        return {
            "variant": self.rules.variant, "options": dict(self.rules.options),
            "players": self.players, "seat": seat, "dealer": self.dealer,
            "version": self.version, "to_move": self.to_move(), "phase": self.phase,
            "hand": [] if seat is None else [c.code for c in self.hands[seat]],
            "hand_counts": [len(h) for h in self.hands], "pack_count": len(self.stock),
            "stock": [], "stock_count": 0, "combinations": [],
            "log": LogView().of(self.log, seat),
            "outcome": None if out is None else out.to_json(),
        }  # fmt: skip

    def spectator_view(self) -> dict[str, Any]:
        return self.player_view(None)

    def copy(self) -> ThreesDeal:
        return ThreesDeal.from_json(self.to_json())

    def copy_apart(self) -> ThreesDeal:
        return self.copy()  # no cache to share

    @classmethod
    def from_view(cls, view: Mapping[str, Any], hidden: Hidden) -> ThreesDeal:
        """The deal a seat's view is a view of, the other hand and the stock hidden."""
        new = cls.__new__(cls)
        seat = int(view["seat"])
        new.rules = make_rules(view["variant"], view["options"])
        new.players, new.dealer, new.seed, new.pack_order = 2, int(view["dealer"]), None, ()
        new._init_history()
        new.version = int(view["version"])
        mine = [Card.from_code(c) for c in view["hand"]]
        new.hands = [mine if s == seat else list(hidden.hands[s]) for s in range(2)]
        new.stock = list(hidden.pack)
        new.turn, new.phase = int(view["to_move"]), str(view["phase"])
        new.log, new._outcome = [], None
        return new

    def to_json(self) -> dict[str, Any]:
        return {
            "snapshot": SNAPSHOT_VERSION, "rules": self.rules.to_json(),
            "players": self.players, "dealer": self.dealer, "seed": self.seed,
            "pack_order": [c.code for c in self.pack_order],
            "history": self.history_json(), "version": self.version,
            "hands": [[c.code for c in h] for h in self.hands],
            "stock": [c.code for c in self.stock], "turn": self.turn, "phase": self.phase,
            "log": [r.to_json() for r in self.log],
            "outcome": None if self._outcome is None else self._outcome.to_json(),
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any], *, what: str = "a Threes deal") -> ThreesDeal:
        check_version(data, what)
        try:
            new = cls.__new__(cls)
            new.rules = make_rules(data["rules"]["variant"], data["rules"]["options"])
            new.players, new.dealer, new.seed = data["players"], data["dealer"], data["seed"]
            new.pack_order = tuple(Card.from_code(c) for c in data["pack_order"])
            new._load_history(data["history"], new.players, what, THREES_ACTIONS)
            new.version = int(data["version"])
            new.hands = [[Card.from_code(c) for c in h] for h in data["hands"]]
            new.stock = [Card.from_code(c) for c in data["stock"]]
            new.turn, new.phase = int(data["turn"]), str(data["phase"])
            new.log = [Record.from_json(e) for e in data["log"]]
            new._outcome = outcome_from_json(data["outcome"])
        except (KeyError, TypeError, ValueError) as e:
            raise malformed(what, data, e) from None
        return new


# --- the game: its registry entry --------------------------------------------------------


class Threes(Variant):
    name = "threes"
    display_name = "Threes"
    description = "two players, a toy game of the tests"
    players = PlayerRange(2, 2, 2)
    seats = PlayerRange(2, 2, 2)
    options = ()
    summary = "Three cards each; draw one, discard one; three of a rank wins."
    laws = (
        Law("T1", "A 24-card pack, ace to six; three cards each, one at a time."),
        Law("T2", "In turn each draws the top card of the stock, then discards one card."),
        Law("T3", "A player left holding three of a rank after his discard wins the deal."),
        Law("T4", "The other pays him the pips of his hand; an empty stock ends it unpaid."),
    )
    actions = THREES_ACTIONS
    order = 90
    deal_class = ThreesDeal  # load() and from_view() read a deal through it

    def capabilities(self, rules: Rules) -> Capabilities:
        return Capabilities()

    def pack(self, rules: Rules) -> list[Card]:
        return [Card.from_code(r + s) for s in "CDHS" for r in ("A", "2", "3", "4", "5", "6")]

    def hand_size(self, rules: Rules, players: int) -> int:
        return 3

    def deal(self, rules: Rules, players: int, dealer: int, start: DealStart) -> ThreesDeal:
        seed, pack = start.seed, start.pack
        if pack is None:
            seed = random.SystemRandom().randrange(2**63) if seed is None else seed
            pack = self.pack(rules)
            random.Random(seed).shuffle(pack)
        return ThreesDeal(rules, players, dealer, list(pack), seed)


@pytest.fixture
def threes() -> Iterator[Threes]:
    with registered(Threes()) as game:
        yield game


# --- the tests ---------------------------------------------------------------------------

SEED = 3


def _collector(legal: list[Action], hand: list[str]) -> Action:
    """The member's play: draw; then discard a card of the rank he holds fewest of."""
    ranks = [code[:-1] for code in hand]
    return min(legal, key=lambda a: ranks.count(a.card.code[:-1]) if isinstance(a, Discard) else -1)


def test_the_engine_and_the_random_computer_player_play_it_to_the_end(threes: Threes) -> None:
    from games.bots import choose

    for seed in range(20):
        deal = new_deal(make_rules("threes"), 2, seed % 2, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over():
            seat = deal.to_move()
            assert seat is not None
            view = deal.player_view(seat)
            hidden = Hidden({1 - seat: deal.hands[1 - seat]}, deal.stock)  # type: ignore[attr-defined]
            sampled = deal_from_view(view, hidden)  # its from_view, through the registry
            assert sampled.player_view(seat) | {"log": []} == view | {"log": []}
            deal.apply(choose("random", view, deal.legal_actions(seat), rng))
        out = deal.outcome()
        assert out is not None and sum(threes.points(out)) == 0
        loaded = find_variant("threes").load(json.loads(json.dumps(deal.to_json())), "t")
        assert loaded == deal  # its snapshot round-trips
    # its notation is its own: "draw" means Threes' draw here, the rummy games' there
    assert isinstance(threes.parse_action({"type": "draw", "seat": 1}), Draw)
    assert not isinstance(find_variant("foster").parse_action(
        {"type": "draw", "seat": 1, "source": "pack"}), Draw)  # fmt: skip
    with pytest.raises(InvalidActionError, match="unknown action type 'layout' in Threes"):
        threes.parse_action({"type": "layout", "seat": 0, "cards": []})


@pytest.mark.django_db(transaction=True)
def test_a_member_plays_it_over_http_against_a_computer_player(
    threes: Threes, make_member: Any, client_for: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every deal's recorded seed is fixed, so the play below is the same every run (the
    # bot seeds its choices from the deal's seed): seed 3 ends in a win, not an empty stock.
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: SEED)
    member = make_member("Ann")
    client = client_for(member)
    form = client.get("/practice/").content.decode()
    assert '<option value="threes">Threes</option>' in form
    assert "Three cards each" in client.get("/rules/threes/").content.decode()

    r = client.post("/practice/", {"variant": "threes", "players-threes": "2"})
    assert r.status_code == 302, r.content.decode()[:500]
    table_url = r["Location"]
    table_id = int(table_url.rstrip("/").split("/")[-1])
    page = client.get(table_url)
    assert page.status_code == 200
    deal = Deal.objects.get(table_id=table_id, number=1)
    hand = reading.load_state(deal).player_view(0)["hand"]
    body = page.content.decode()
    mine = re.findall(r'aria-pressed="false" aria-label="[^"]*" data-card="([^"]+)"', body)
    assert sorted(mine) == sorted(hand) and len(hand) == 3  # his hand, as buttons

    pubsub = club_redis.client().pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(club_redis.key("table", table_id))
    try:
        moves = 0
        while not Deal.objects.get(pk=deal.pk).finished:
            d = Deal.objects.get(pk=deal.pk)
            state = reading.load_state(d)
            if d.to_move == 0:  # the member, through the page's endpoint
                action = _collector(state.legal_actions(0), state.player_view(0)["hand"])
                r = client.post(
                    f"/tables/{table_id}/act/",
                    {"version": d.version, "deal": d.pk, "token": f"t{moves}",
                     "action": json.dumps(action.to_json())},
                    HTTP_HX_REQUEST="true",
                )  # fmt: skip
                assert r.status_code == 200, r.content.decode()[:300]
            else:  # the computer player, as the worker plays it
                assert services.play_bot(d.pk, d.version, level="random")
            moves += 1
            assert moves < 200
        events, club = [], []  # the moves' notices; the club panel's alone (club.live.notices)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and len(events) < moves:
            m = pubsub.get_message(timeout=0.1)  # None also for the ignored subscribe reply
            if m is not None:
                notice = json.loads(m["data"])
                (events if "version" in notice else club).append(notice)
    finally:
        pubsub.close()
    assert len(events) == moves, "every move publishes one event"
    # never cards: the table, and whether the club panel changed too (the deal's end);
    # "by", the mover's user, for the table's streams alone (tests/games/test_push.py)
    assert all(set(e) <= {"version", "deal", "table", "club", "at", "by"} for e in events)
    assert all(set(e) == {"club", "at"} for e in club)

    deal = Deal.objects.get(pk=deal.pk)
    assert deal.finished and deal.washbook_line_id is not None
    line = WashbookLine.objects.get(pk=deal.washbook_line_id)
    entries = list(line.entries.values_list("points", flat=True))
    assert deal.outcome["winner"] is not None
    assert len(entries) == 2 and sum(entries) == 0 and all(entries)
    assert Deal.objects.filter(table_id=table_id, number=2).exists()  # the next deal
