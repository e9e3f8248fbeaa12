"""Turn one viewer's ``player_view`` (and his legal actions) into template context.

Only the view dict and the viewer's own legal actions come in here: never the engine
state, the pack or another hand, so a template cannot show what the viewer may not see.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from django.utils import translation
from django.utils.translation import gettext

from games.engine.actions import Action, Role
from games.engine.i18n import gettext_noop
from games.engine.records import Record
from games.engine.rules import make_rules
from games.engine.variant import Variant
from games.engine.words import Catalog, combination_phrases, sentence, speaking, spelled
from games.engine.words import card_name as engine_card_name

from . import club_api
from .club_api import SeatInfo

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 11)}
SUITS = {"C": ("clubs", "♣"), "D": ("diamonds", "♦"), "H": ("hearts", "♥"), "S": ("spades", "♠")}
SUIT_ORDER = {"C": 0, "D": 1, "S": 2, "H": 3}  # alternate colours in a sorted hand

PHASES = {
    "draw": gettext_noop("draw from the pack or the stock"),
    "play": gettext_noop("lay out or add cards (optional), then discard"),
    "challenge": gettext_noop("accept or decline the challenge"),
    "trade": gettext_noop("pass one card face down (card trade)"),
    "turn": gettext_noop("turn up the next card of the pack"),
    "say": gettext_noop("use, force or pass the card turned up"),
    "discard": gettext_noop("lay out more (optional), then discard or force a card"),
    "over": gettext_noop("the deal is over"),
}
# What the combinations' kinds are called on the table (a combination's aria-label, a
# target's button).
KINDS = {
    "set": gettext_noop("set"),
    "sequence": gettext_noop("sequence"),
    "run": gettext_noop("run"),
    "spread": gettext_noop("spread"),
    "meld": gettext_noop("meld"),
}


def reader() -> Catalog:
    """The reader's catalog (the language the request or the push activated), for the
    engine's words (issue 82), as the club picks it."""
    return cast(Catalog, club_api.reader_catalog())


@dataclass(frozen=True)
class CardFace:
    code: str  # the card itself ("JK", "7H")
    named: str | None  # what a wild card stands for
    rank: str
    suit: str  # symbol, "" for a joker
    red: bool
    label: str
    order_suit: int
    order_rank: int
    crossways: bool = False


def face(code: str, named: str | None = None, crossways: bool = False) -> CardFace:
    """A card as the table draws it, its accessible name in the reader's language."""
    return _face(code, named, crossways, translation.get_language() or "")


@lru_cache(maxsize=4096)
def _face(code: str, named: str | None, crossways: bool, language: str) -> CardFace:
    if named == code:
        named = None
    catalog = reader()
    if code == "JK":
        label = engine_card_name(code, catalog)
        if named:
            label = gettext("joker as %(card)s") % {
                "card": engine_card_name(named, catalog, the=True)
            }
        return CardFace(code, named, "★", "", False, label, 9, 0, crossways)
    rank, suit = code[:-1], code[-1]
    label = engine_card_name(code, catalog)
    if named:
        label = gettext("%(card)s, wild, as %(named)s") % {
            "card": label,
            "named": engine_card_name(named, catalog, the=True),
        }
    if crossways:
        label = gettext("%(card)s, moved (crossways)") % {"card": label}
    return CardFace(
        code, named, rank, SUITS[suit][1], suit in "HD", label, SUIT_ORDER[suit], RANKS[rank],
        crossways,
    )  # fmt: skip


def _seat(position: int) -> str:
    """An empty seat's name: "Seat 2"."""
    return gettext("Seat %(number)s") % {"number": position + 1}


def _hand_pips(codes: Sequence[str]) -> int:
    """A hand's count under Colonel's values (ace 1, courts 10), the game that challenges."""
    return sum(min(RANKS[c[:-1]], 10) for c in codes if c != "JK")


def action_label(a: Action, j: dict[str, Any] | None = None) -> str:
    """What a button or the list of every legal play calls an action: the action's own
    words (:meth:`~games.engine.actions.Action.button`) in the reader's language, cards
    written out."""
    with speaking(reader()):
        return spell_cards(a.button())


def build(
    view: dict[str, Any],
    legal: Sequence[Action],
    seating: Sequence[SeatInfo],
    *,
    me: int | None,
) -> dict[str, Any]:
    """Everything the live region shows, from this viewer's view and legal actions."""
    rules = make_rules(str(view["variant"]), view.get("options") or {})
    caps = rules.spec.capabilities(rules)  # what this game has, never its name
    n = int(view["players"])
    names = {s.position: s for s in seating}
    order = [(me + i) % n for i in range(n)] if me is not None else list(range(n))
    to_move = view.get("to_move")
    seats = []
    for pos in order:
        info = names.get(pos)
        seats.append(
            {
                "position": pos,
                "name": info.display_name if info else _seat(pos),
                "is_bot": bool(info and info.is_bot),
                "is_me": pos == me,
                "is_dealer": pos == view.get("dealer"),
                "to_move": pos == to_move,
                "hand_count": view["hand_counts"][pos],
                "down_count": (view.get("down_counts") or [None] * n)[pos],
            }
        )
    groups = []
    for pos in order:
        combos = [c for c in view["combinations"] if c["owner"] == pos]
        if combos:
            groups.append(
                {
                    "seat": next(s for s in seats if s["position"] == pos),
                    "combinations": [
                        {
                            "id": c["id"],
                            "kind": c["kind"],
                            "kind_said": gettext(KINDS.get(c["kind"], c["kind"])),
                            "cards": [
                                face(x["card"], x.get("as"), bool(x.get("crossways")))
                                for x in c["cards"]
                            ],
                        }
                        for c in combos
                    ],
                }
            )

    combos = combination_names(view.get("combinations", []), seats)
    js = [(a, a.to_json()) for a in legal]
    simple = [
        {"label": action_label(a), "json": json.dumps(j), "type": j["type"]}
        for a, j in js
        if a.role is Role.BUTTON
    ]
    # A move that can cost points (Colonel's challenge, Tonk's drop) is kept apart from
    # the ordinary moves, after them, and asks to be confirmed (issue 38, item 4).
    decisions = [
        {
            "label": action_label(a),
            "json": json.dumps(j),
            "type": j["type"],
            "explain": gettext(a.risks).format(pips=_hand_pips(view.get("hand") or [])),
        }
        for a, j in js
        if a.role is Role.DECISION
    ]
    add_to: set[int] = set()
    aims: dict[int, str] = {}  # what adding to each combination is called ("Hit")
    joker_to: set[int] = set()
    # Which hand cards each combination takes ("" where no hand card is needed: the card
    # turned up, used on it): the dock lights those up when a fitting card is selected.
    fits: dict[tuple[str, int], set[str]] = {}
    for a, _ in js:
        role, to = a.role, a.target()
        if to is None:
            continue
        if role is Role.ADD:
            aims.setdefault(to, gettext(a.aim))
            add_to.add(to)
            fits.setdefault(("add", to), set()).update(a.hand_codes() or [""])
        elif role is Role.MOVE_JOKER:
            joker_to.add(to)
            fits.setdefault(("move-joker", to), set()).update(a.hand_codes())
    targets = []
    for g in groups:
        for c in g["combinations"]:
            c["can_add"] = c["id"] in add_to
            c["can_move_joker"] = c["id"] in joker_to
            c["force"] = g["seat"]["position"] != me
            for intent in ("add", "move-joker"):
                codes = fits.get((intent, c["id"]))
                if codes is None:
                    continue
                verb = (
                    gettext("Move the joker on")
                    if intent == "move-joker"
                    else gettext("Force on")
                    if caps.forcing and c["force"]
                    else aims.get(c["id"], gettext("Add to"))
                )
                kind = c["kind_said"]
                label = (
                    gettext("%(verb)s your %(kind)s") % {"verb": verb, "kind": kind}
                    if g["seat"]["is_me"]
                    else gettext("%(verb)s %(name)s's %(kind)s")
                    % {"verb": verb, "name": g["seat"]["name"], "kind": kind}
                )
                targets.append(
                    {
                        "intent": intent,
                        "id": c["id"],
                        "label": label,
                        "cards": c["cards"],
                        "fits": " ".join(sorted(x for x in codes if x)),
                        "free": "" in codes,
                    }
                )
    plays = [
        {"label": action_label(a), "json": json.dumps(j)}
        for a, j in js
        if a.role in (Role.NEW_COMBINATION, Role.ADD, Role.MOVE_JOKER)
    ]
    phase = view.get("phase", "")
    say = view.get("say")
    turned = view.get("turned")
    offers = {
        "any": bool(legal),
        "simple": simple,
        "decisions": decisions,
        "targets": targets,
        "layout": any(a.role is Role.NEW_COMBINATION for a in legal),
        "layout_label": gettext(
            next(
                (a.selection for a in legal if a.role is Role.NEW_COMBINATION),
                "Lay out the selected cards",
            )
        ),
        "discard": any(a.role is Role.DISCARD for a in legal),
        # the cards that may be discarded now: never one the rules keep in the hand (a
        # card just taken from the stock); the dock's button waits for one of them
        "discard_fits": " ".join(
            sorted({c for a in legal if a.role is Role.DISCARD for c in a.hand_codes()})
        ),
        "trade": any(a.role is Role.TRADE for a in legal),
        "plays": plays[:80],
        "plays_more": max(0, len(plays) - 80),
    }
    mover = next((s for s in seats if s["position"] == to_move), None)
    return {
        "view": view,
        "me": me,
        "seats": seats,
        "mover": mover,
        "my_turn": me is not None and to_move == me,
        # A turn that cannot end by a discard yet says why (issue 38: no blind dead end).
        "must": (view.get("no_discard") if me is not None and to_move == me else None)
        or _with_reason(
            gettext(rules.spec.phases.get(phase) or PHASES.get(phase, phase)),
            (view.get("no_drop") or view.get("no_tunk"))
            if me is not None and to_move == me
            else None,
        ),
        # a game of many deals (Tunk's, K9, K10): each player's score before this deal,
        # who is out, and how far each is from the score that puts him out
        "game": _game(view, seats),
        "game_caption": gettext(rules.spec.game_caption).format(out_at=view.get("out_at")),
        "my_count": view.get("count"),
        "phase": phase,
        "hand": [face(c) for c in view.get("hand", [])],
        "stock": [face(c) for c in view.get("stock") or []],
        "stock_count": view.get("stock_count", 0),
        "stock_exposed": view.get("stock_mode") == "exposed",
        "pack_count": view.get("pack_count", 0),
        "turned": face(turned) if turned else None,
        "say_name": names[say].display_name if say is not None and say in names else None,
        "groups": groups,
        "log": _log(view.get("log", []), seats, combos),
        "recent": _recent(view.get("log", []), seats, me, combos),
        "offers": offers,
        "outcome": outcome_context(view.get("outcome"), seats, rules.spec),
        "caps": caps,
    }


def _game(view: Mapping[str, Any], seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game's running scores, where a view carries them (empty otherwise)."""
    scores, out_at = view.get("scores"), int(view.get("out_at") or 0)
    if not scores or not out_at:
        return []
    active = set(view.get("active") or range(len(scores)))
    return [
        {
            "name": s["name"],
            "is_me": s["is_me"],
            "score": scores[s["position"]],
            "out": s["position"] not in active,
            "to_go": max(0, out_at - scores[s["position"]]),
        }
        for s in seats
    ]


def _with_reason(words: str, reason: str | None) -> str:
    """The phase's words, and why a move is not offered now (Tonk's Wait Rule)."""
    return (
        gettext("%(words)s; no drop: %(reason)s") % {"words": words, "reason": reason}
        if reason
        else words
    )


_CODE = r"(?:JK|(?:10|[2-9AJQK])[CDHS])(?:=(?:10|[2-9AJQK])[CDHS])?"
_CODES = re.compile(rf"\b{_CODE}(?: {_CODE})*\b")


def _card_words(code: str) -> str:
    """ "the queen of diamonds"; a joker placed as a card: "the joker (as the three of
    hearts)"; a wild two so placed: "the two of spades (as the jack of hearts)"; in the
    reader's language."""
    return spelled(code, reader())


def spell_cards(text: str) -> str:
    """Card codes in a game's log written out as every game's log writes them:
    "draws QD from the stock" -> "draws the queen of diamonds from the stock"."""
    return _CODES.sub(lambda m: ", ".join(_card_words(c) for c in m.group(0).split(" ")), text)


# Each record's words, made once a process: a render words the last 60 entries of the
# log, nearly all of them the same as the render before (issue 59: a tenth of a render).
_WORDS: dict[tuple[Any, ...], str] = {}
_WORDS_KEPT = 50_000


def _words(entry: dict[str, Any]) -> str:
    """A log entry's words, its cards written out: made from its record (the view gives
    each record as its viewer may see it), never read back from text."""
    cards, borrowed = entry.get("cards"), entry.get("borrowed")
    language = translation.get_language()
    key = (
        entry["seat"], entry["kind"], entry["law"], tuple(cards) if cards else (),
        entry.get("combination"), entry.get("number"), tuple(borrowed) if borrowed else (),
        language,
    )  # fmt: skip
    words = _WORDS.get(key)
    if words is None:
        words = sentence(Record.from_json(entry), spelled=True, catalog=reader())
        if len(_WORDS) >= _WORDS_KEPT:
            _WORDS.clear()
        _WORDS[key] = words
    return words


def log_law(law: Any) -> Any:
    """A law as its reader cites it: a citation's words in their language ("book p.50"),
    its number as the source gives it; one cited by its option's name (a club rule,
    "max_turnovers") read as words."""
    return gettext(law).replace("_", " ") if isinstance(law, str) and law else law


def _recent(
    entries: Sequence[dict[str, Any]],
    seats: Sequence[dict[str, Any]],
    me: int | None,
    combos: Mapping[int, str] | None = None,
) -> list[dict[str, Any]]:
    """What the others did since the viewer's own last move (at most the last six), in
    order, by player: shown on the table, not only in the log (issue 38, item 3)."""
    names = {s["position"]: s["name"] for s in seats}
    since = 0
    if me is not None:
        for i, e in enumerate(entries):
            if e.get("seat") == me:
                since = i + 1
    moves: list[dict[str, Any]] = []
    for e in list(entries[since:])[-6:]:
        seat = e.get("seat")
        text = _named(_words(e), e, combos or {})
        if moves and moves[-1]["seat"] == seat:
            moves[-1]["texts"].append(text)
        else:
            name = names.get(seat) if seat is not None else None
            moves.append({"seat": seat, "name": name, "texts": [text]})
    return moves


# A set named by its rank, many of them ("a set of nines").
RANKS_MANY = {
    1: gettext_noop("aces"), 2: gettext_noop("twos"), 3: gettext_noop("threes"),
    4: gettext_noop("fours"), 5: gettext_noop("fives"), 6: gettext_noop("sixes"),
    7: gettext_noop("sevens"), 8: gettext_noop("eights"), 9: gettext_noop("nines"),
    10: gettext_noop("tens"), 11: gettext_noop("jacks"), 12: gettext_noop("queens"),
    13: gettext_noop("kings"),
}  # fmt: skip


def combination_names(
    combinations: Sequence[Mapping[str, Any]], seats: Sequence[Mapping[str, Any]]
) -> dict[int, str]:
    """Each combination on the table as a player names it (issue 56: not "spread 0"):
    its owner and its cards, "Carol's run of hearts 5-6-7", "your set of nines", in the
    reader's language."""
    mine = {s["position"] for s in seats if s.get("is_me")}
    names = {s["position"]: s["name"] for s in seats}
    out: dict[int, str] = {}
    for c in combinations:
        placed = [str(x.get("as") or x["card"]) for x in c["cards"]]
        natural = [p for p in placed if p != "JK"] or placed
        owner = c["owner"]
        if c["kind"] == "set":
            said = {"ranks": gettext(RANKS_MANY[RANKS[natural[0][:-1]]])}
            yours, theirs, anyone = _SET_NAMES
        else:
            said = {
                "suit": gettext(SUITS[natural[0][-1]][0]),
                "cards": "-".join(p[:-1] for p in placed),
            }
            yours, theirs, anyone = _RUN_NAMES
        if owner in mine:
            out[c["id"]] = gettext(yours) % said
        elif owner in names:
            out[c["id"]] = gettext(theirs) % (said | {"name": names[owner]})
        else:
            out[c["id"]] = gettext(anyone) % said
    return out


# A combination named for its reader: theirs, another player's, or nobody's they know.
_SET_NAMES = (
    gettext_noop("your set of %(ranks)s"),
    gettext_noop("%(name)s's set of %(ranks)s"),
    gettext_noop("a set of %(ranks)s"),
)
_RUN_NAMES = (
    gettext_noop("your run of %(suit)s %(cards)s"),
    gettext_noop("%(name)s's run of %(suit)s %(cards)s"),
    gettext_noop("a run of %(suit)s %(cards)s"),
)


def _named(text: str, entry: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """``text`` with the combination its entry names called by ``names``: the words its
    sentence names it by ("combination 2", "spread 2", in the reader's language)."""
    number = entry.get("combination")
    if number not in names:
        return text
    for phrase in combination_phrases(int(number), reader()):
        text = re.sub(re.escape(phrase) + r"(?!\d)", lambda _m: names[int(number)], text)
    return text


def _log(
    entries: Sequence[dict[str, Any]],
    seats: Sequence[dict[str, Any]],
    combos: Mapping[int, str] | None = None,
) -> list[tuple[Any, str, Any]]:
    """The last 60 public log entries, newest first, each as (its player's name, its
    words: card codes written out, the combinations named by owner and cards, its law in
    words): what the log's list items are drawn from (``log_entries``), and no more (a
    copy of each entry made a fifth of a move's context, issue 59)."""
    names = {s["position"]: s["name"] for s in seats}
    combos = combos or {}
    out = []
    for e in entries[:-61:-1]:
        text = _words(e)
        if e.get("combination") in combos:
            text = _named(text, e, combos)
        seat = e.get("seat")
        out.append((names.get(seat) if seat is not None else None, text, log_law(e.get("law"))))
    return out


def outcome_context(
    out: dict[str, Any] | None, seats: Sequence[dict[str, Any]], game: Variant | None = None
) -> dict[str, Any] | None:
    """A deal's end (L23): every hand shown, pips and payments, in ``game``'s words where
    it has its own (Tonk's counts, T9)."""
    if not out or "hands" not in out:
        return None  # no deal's end (or play stopped by the club: nothing was scored)
    by_pos = {s["position"]: s for s in seats}
    rows = []
    for pos, hand in enumerate(out["hands"]):
        rows.append(
            {
                "name": by_pos[pos]["name"] if pos in by_pos else _seat(pos),
                "is_winner": pos == out.get("winner"),
                "hand": [face(c) for c in hand],
                "pips": out["pips"][pos],
                "payment": out["payments"][pos],
            }
        )
    winner = by_pos.get(out["winner"], {}).get("name") if out.get("winner") is not None else None

    def name(pos: int) -> str:
        return str(by_pos[pos]["name"]) if pos in by_pos else _seat(pos)

    adjustments = [
        {
            **a,
            "text": gettext("%(name)s: %(points)s for %(reason)s (%(law)s)")
            % {
                "name": name(a["seat"]),
                "points": f"{'+' if a['points'] > 0 else ''}{a['points']}",
                "reason": gettext(str(a["reason"]).replace("-", " ")),
                "law": log_law(a["law"]),
            },
        }
        for a in out.get("adjustments", [])
    ]
    return {
        "kind": out["kind"],
        "winner": winner,
        "headline": (game and _game_headline(game, str(out["kind"]), winner))
        or _headline(str(out["kind"]), winner, int(out.get("carried", 0))),
        "shown": gettext(game.shown if game else Variant.shown),
        "worth": gettext(game.worth if game else Variant.worth),
        "points_note": gettext(game.points_note if game else Variant.points_note),
        "rows": rows,
        "carried": out.get("carried", 0),
        "adjustments": adjustments,
    }


def _game_headline(game: Variant, kind: str, winner: str | None) -> str | None:
    """The game's own words for how a deal of it ended (Tonk's, Tunk's), in the reader's
    language."""
    with speaking(reader()):
        return game.headline(kind, winner)


def _headline(kind: str, winner: str | None, carried: int) -> str:
    """How a deal ended, in words, for every way a deal can end (issue 38: every ending
    told, a tableau included)."""
    if kind == "tableau":
        if carried:
            return gettext(
                "a tableau: nobody went out, nothing paid; %(count)s carried to the next deal"
            ) % {"count": carried}
        return gettext("a tableau: nobody went out, nothing paid")
    if kind == "challenge":
        return (
            gettext("a challenge, accepted: %(name)s had the lower hand") % {"name": winner}
            if winner
            else gettext("a challenge, accepted: equal hands, nothing paid")
        )
    if kind == "exhausted":
        return (
            gettext("the pack ran out: %(name)s had the lower hand") % {"name": winner}
            if winner
            else gettext("the pack ran out: equal hands, nothing paid")
        )
    if kind == "abandoned":
        return gettext("abandoned (the pack ran out too many times): nothing paid")
    if winner:
        return gettext("%(name)s went out") % {"name": winner}
    return gettext(kind.replace("-", " "))


def named_seats(seating: Sequence[SeatInfo], players: int, me: int | None) -> list[dict[str, Any]]:
    names = {s.position: s for s in seating}
    return [
        {
            "position": p,
            "name": names[p].display_name if p in names else _seat(p),
            "is_me": p == me,
        }
        for p in range(players)
    ]
