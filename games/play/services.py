"""The games app's transactions: start a deal, apply an action, end a deal.

``act`` is the one way an action reaches a deal, for people and bots alike: it locks
the deal row, checks seat, turn and version, applies through the engine, appends the
action, saves the engine state, and after commit publishes a tiny notice (never cards)
and queues the next bot move.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from games.bots import choose
from games.engine.actions import Action
from games.engine.errors import IllegalActionError, InvalidActionError
from games.engine.protocol import DealState

from ..models import Deal, DealAction
from . import call_round, club_api, engine_api, kept, tokens
from .intents import AmbiguousActionError, IntentError, resolve
from .moves import Move, Rejection
from .reading import (
    current_deal,
    load_state,
    lock_deal_and_seating,
    member_of_user,
    seat_of,
    stopped_reason,
)

log = logging.getLogger(__name__)

STALE = gettext_lazy("stale: the table has moved on, here is the current state")


@dataclass
class ActResult:
    deal: Deal
    state: DealState
    seat: int
    applied: list[Action] = field(default_factory=list)
    duplicate: bool = False
    choices: list[Action] = field(default_factory=list)
    question: str = ""  # what the choices answer
    next_deal: Deal | None = None
    # Who sat where when it was decided (read under the table's lock) and the player's
    # member (None for a computer player's move): the page is rendered for them.
    seating: list[club_api.SeatInfo] = field(default_factory=list)
    member_id: int | None = None


# --- starting deals --------------------------------------------------------------------


def ensure_deal(table_id: int) -> Deal | None:
    """The table's current deal, dealing the first one when an online table is full."""
    deal = current_deal(table_id)
    if deal is not None:
        return deal
    Table = club_api.Table
    table = Table.objects.select_related("session").get(pk=table_id)
    if table.mode != "online" or table.status == Table.CLOSED:
        return None  # real cards, or a table the club closed: nothing is dealt
    if table.session is not None and table.session.is_closing_after_deals:
        return None  # the evening closes when its deals in progress end
    seating = club_api.table_seating(table_id)
    if len(seating) < 2 or len(seating) != table.size:
        return None
    try:
        with transaction.atomic():
            deal = _create_deal(
                table_id,
                number=1,
                variant=table.variant,
                options=dict(table.options or {}),
                players=len(seating),
                dealer=club_api.current_dealer(table_id),
                game_number=table.game_number,
                deal_in_game=table.deal_in_game,
                bot_seats=frozenset(s.position for s in seating if s.is_bot),
            )
            after_commit(deal, seating)
    except IntegrityError:  # another request dealt it first
        deal = current_deal(table_id)
    return deal


def fresh_game(table_id: int) -> bool:
    """Whether nothing has been played in the table's current game: no deal yet, or the
    game's first deal with no action applied (the club asks before it seats a computer
    player in an empty seat, issue 56)."""
    deal = current_deal(table_id)
    if deal is None:
        return True
    return (
        not deal.finished
        and deal.deal_in_game == 0
        and not DealAction.objects.filter(deal=deal).exists()
    )


def redeal(table_id: int) -> None:
    """Deal the table's current deal again for its seating as it is now (the club has
    seated a computer player in an empty seat, the table locked; nothing was played in
    this game). The unplayed deal is deleted: its cards were seen but never played, and
    the new one is dealt from a new seed by the same dealer."""
    deal = Deal.objects.select_for_update().filter(table_id=table_id).order_by("-number").first()
    if deal is None:
        return  # nothing dealt yet: ensure_deal deals for the seating
    if deal.finished or DealAction.objects.filter(deal=deal).exists():
        raise club_api.ClubError("play has begun in this deal: it cannot be dealt again")
    seating = club_api.table_seating(table_id)
    number, dealer, carry_in = deal.number, deal.dealer, deal.carry_in
    deal.delete()
    new = _create_deal(
        table_id,
        number=number,
        variant=deal.variant,
        options=dict(deal.options),
        players=len(seating),
        dealer=dealer % len(seating),
        carry_in=carry_in,
        game_number=deal.game_number,
        deal_in_game=0,
        bot_seats=frozenset(s.position for s in seating if s.is_bot),
    )
    after_commit(new, seating)


def _new_seed() -> int:
    """A new deal's seed: secret and random, but in browser tests (settings
    .GAMES_TEST_SEEDS, only under TESTING) the next number of that Redis counter, which
    the test sets, so that every process deals a test's deals from known seeds."""
    if settings.GAMES_TEST_SEEDS:
        return int(club_api.redis_client().incr(settings.GAMES_TEST_SEEDS))
    return secrets.randbits(63)


def _create_deal(
    table_id: int,
    *,
    number: int,
    variant: str,
    options: dict[str, Any],
    players: int,
    dealer: int,
    carry_in: int = 0,
    scores_in: tuple[int, ...] = (),
    game_number: int = 1,
    deal_in_game: int = 0,
    bot_seats: frozenset[int] = frozenset(),
) -> Deal:
    seed = _new_seed()  # the engine shuffles from a recorded seed
    state = engine_api.new_state(
        variant, options, players, dealer, seed=seed, carry_in=carry_in, scores_in=scores_in
    )
    fields: dict[str, Any] = {"bot_turn": state.to_move() in bot_seats}
    fields |= call_round.opening(state)  # Tonk's call round: open to all at once (TO5)
    return Deal.objects.create(
        **fields,
        table_id=table_id,
        number=number,
        game_number=game_number,
        deal_in_game=deal_in_game,
        variant=variant,
        options=dict(state.rules.options),
        players=players,
        dealer=dealer,
        seed=seed,
        pack=engine_api.pack_codes(state),
        carry_in=carry_in,
        scores_in=list(scores_in),
        version=state.version,
        to_move=state.to_move(),
        snapshot=engine_api.to_snapshot(state),
    )


# --- acting ----------------------------------------------------------------------------


def act(move: Move, *, seating: list[club_api.SeatInfo] | None = None) -> ActResult:
    """Apply one :class:`~games.play.moves.Move`: an action (its JSON) or an intent over
    cards, by a member, the member seated for a user, or a computer player.

    ``seating``, when the caller read it already (a computer player's move), saves the
    read under the lock. The player's member is found with the seating under the table's
    lock, and the result carries both. Raises :class:`Rejection` and changes nothing when
    the action is refused.
    """
    table_id, version, token, deal_id = move.table_id, move.version, move.token, move.deal_id
    member_id, action, cards = move.member_id, move.action, move.cards
    if version is None:
        raise Rejection(400, "malformed", gettext("the request carries no state version"))
    if token is not None and not (0 < len(token) <= 64):
        raise Rejection(400, "malformed", gettext("bad client token"))

    with transaction.atomic():
        # The app's lock order (club/services/base.py): the table, then its deal. Ending
        # the deal locks the table to book it; closing or voiding locks the table, then
        # stops the deal: taking the deal first deadlocked against them (issue 36). The
        # seating (unless given) and the deal come with the table's lock, in one round
        # trip (issue 59).
        deal, locked_seating = lock_deal_and_seating(table_id)
        seating = locked_seating if seating is None else seating
        if move.user_id is not None:
            member_id = member_of_user(seating, move.user_id)
        my_seat = _acting_seat(seating, member_id, move.bot_seat, move.seat)
        by_seat = {s.position: s for s in seating}
        if deal is None:
            raise Rejection(409, "no-deal", gettext("no deal is in play at this table"))
        answer = partial(ActResult, deal=deal, seat=my_seat, seating=seating, member_id=member_id)
        if (deal_id is not None and deal_id != deal.pk) or version != deal.version:
            # A double click or a resubmission: applied once, answered with the result.
            if (
                token
                and DealAction.objects.filter(
                    deal_id=deal_id or deal.pk, client_token=token
                ).exists()
            ):
                return answer(state=load_state(deal), duplicate=True)
            raise Rejection(409, "stale", str(STALE))
        # A token already used, sent again at the current version (a replayed request):
        # the earlier action was applied once, nothing more is (it raised an
        # IntegrityError, a 500, before). Found by the action's INSERT (ON CONFLICT, one
        # query rather than a look first and the insert, issue 59), or, where the replay
        # is refused before that, by a look then.
        if deal.finished:
            raise Rejection(409, "over", stopped_reason(deal) or gettext("the deal is over"))
        # the state kept for this version, copied to move (no snapshot decoded again)
        state = kept.state_of(deal).for_move()
        if call_round.is_open(deal):  # every player answers at once, secretly (TO5)
            _answer_in_round(deal, state, my_seat, action)
            return answer(state=state)
        if state.to_move() != my_seat:
            if tokens.used(deal, token):
                return answer(state=load_state(deal), duplicate=True)
            raise Rejection(409, "not-your-turn", gettext("it is not your turn"))

        if action is not None:
            try:
                actions = [
                    engine_api.parse_action(
                        _with_seat(action, my_seat), state.legal_actions(my_seat), state
                    )
                ]
            except InvalidActionError as e:
                raise Rejection(
                    400, "malformed", gettext("malformed action: %(why)s") % {"why": e}
                ) from None
        else:
            view = state.player_view(my_seat)
            try:
                resolved = resolve(
                    state,
                    my_seat,
                    move.intent or "",
                    list(cards),
                    move.combination,
                    view.get("turned"),
                )
            except AmbiguousActionError as e:  # the page asks which
                return answer(state=state, choices=e.candidates, question=e.question)
            except IntentError as e:
                raise Rejection(400, "malformed", str(e)) from None
            except InvalidActionError as e:
                raise Rejection(
                    400, "malformed", gettext("malformed action: %(why)s") % {"why": e}
                ) from None
            actions = resolved.actions

        base = deal.version
        for a in actions:
            if a.seat != my_seat:
                raise Rejection(403, "not-your-seat", gettext("you can act only at your own seat"))
            try:
                state.apply(a)
            except IllegalActionError as e:
                if tokens.used(deal, token):
                    return answer(state=load_state(deal), duplicate=True)
                raise Rejection(422, "illegal", e.reason, e.law) from None
            except InvalidActionError as e:
                raise Rejection(
                    400, "malformed", gettext("malformed action: %(why)s") % {"why": e}
                ) from None
        rows = [
            DealAction(
                deal=deal,
                index=base + i,
                seat=my_seat,
                action=a.to_json(),
                client_token=(token if i == 0 else None),
                by_member_id=member_id,
            )
            for i, a in enumerate(actions)
        ]
        to_move = state.to_move()
        moved = {
            "version": state.version,
            "to_move": to_move,
            "snapshot": engine_api.to_snapshot(state),
            "moved_at": timezone.now(),
            "bot_turn": to_move is not None and to_move in by_seat and by_seat[to_move].is_bot,
        }
        if token and len(rows) == 1 and not state.is_over():
            # The common turn: the action and the deal's new state in one statement, one
            # round trip (issue 59); nothing moves where the token was used before.
            if not tokens.move_once(rows[0], moved):
                return answer(state=load_state(deal), duplicate=True)
            for name, value in moved.items():
                setattr(deal, name, value)
            after_commit(deal, seating, state, by=by_seat[my_seat].user_id)
            return answer(state=state, applied=actions)
        if token and not tokens.insert_once(rows[0]):  # the token was used: applied once before
            return answer(state=load_state(deal), duplicate=True)
        if token:
            rows = rows[1:]
        if len(rows) == 1:
            rows[0].save(force_insert=True)
        elif rows:
            DealAction.objects.bulk_create(rows)
        for name, value in moved.items():
            setattr(deal, name, value)
        fields = list(moved)
        result = answer(state=state, applied=actions)
        if state.is_over():
            fields += ["finished", "outcome", "finished_at", "washbook_line_id"]
            result.next_deal = finish_deal(deal, state)
        deal.save(update_fields=fields)
        after_commit(
            result.next_deal or deal,
            seating,
            state if result.next_deal is None else None,
            by=by_seat[my_seat].user_id,
        )
    return result


def _acting_seat(
    seating: list[club_api.SeatInfo], member_id: int | None, bot_seat: int | None, seat: int | None
) -> int:
    """The seat an action is made at: the computer player's, or the member's own."""
    if bot_seat is not None:
        if not any(s.position == bot_seat and s.is_bot for s in seating):
            raise Rejection(403, "not-your-seat", gettext("that seat is not a computer player's"))
        return bot_seat
    mine = seat_of(seating, member_id)
    if mine is None:
        raise Rejection(
            403, "no-seat", gettext("you have no seat at this table (spectators watch)")
        )
    if seat is not None and seat != mine:
        raise Rejection(403, "not-your-seat", gettext("you can act only at your own seat"))
    return mine


def _answer_in_round(deal: Deal, state: DealState, seat: int, action: Any) -> None:
    """A call (or its taking back) while the call round is open: kept on the deal, not
    applied, published or versioned until the round closes (games.play.rounds)."""
    if action is None:
        raise Rejection(
            409, "call-round", gettext("the call round is open: play begins when it closes")
        )
    try:
        a = engine_api.parse_action(_with_seat(action, seat), [], state)
    except InvalidActionError as e:
        raise Rejection(
            400, "malformed", gettext("malformed action: %(why)s") % {"why": e}
        ) from None
    refused = call_round.answer(deal, state, seat, a)
    if refused is not None:
        raise Rejection(409, "call-round", *refused)


def _with_seat(data: Any, seat: int) -> Any:
    if isinstance(data, dict) and "seat" not in data:
        return {**data, "seat": seat}
    return data


def finish_deal(deal: Deal, state: DealState) -> Deal | None:
    """The end of a deal (L21-L24): hands shown, the washbook line, the next deal (none
    when the club's evening closes as its deals in progress end)."""
    out = state.outcome()
    assert out is not None
    outcome = out.to_json()
    deal.finished = True
    deal.outcome = outcome
    deal.finished_at = timezone.now()
    points = dict(enumerate(state.rules.spec.points(out)))  # the game's scoring: sums to 0
    detail = {
        "deal_id": deal.pk,
        "deal_number": deal.number,
        "dealer": deal.dealer,  # a seat: the washbook's CSV names him (players[dealer])
        "variant": deal.variant,
        "kind": out.kind,
        "winner": out.winner,
        "pips": list(out.pips),
        "adjustments": outcome["adjustments"],
        "carried": out.carried,
        "scoring": out.scoring,
    }
    try:
        line = club_api.post_online_deal(
            deal.table_id, deal_key=f"deal:{deal.pk}", points=points, detail=detail
        )
        turn = club_api.advance_after_deal(
            deal.table_id, game_over=state.rules.spec.ends_game(state)
        )
    except club_api.ClubError as e:  # the club refuses (table closed, ...)
        raise Rejection(
            409, "club", gettext("the club cannot record this deal: %(why)s") % {"why": e}
        ) from None
    deal.washbook_line_id = line.pk
    if turn.closing:
        return None
    seating = club_api.table_seating(deal.table_id)
    scores = state.rules.spec.scores_after(state)
    return _create_deal(
        deal.table_id,
        number=deal.number + 1,
        variant=deal.variant,
        options=dict(deal.options),
        players=len(seating),
        dealer=turn.dealer_position,
        carry_in=out.carried if state.rules.spec.capabilities(state.rules).carries else 0,
        # a game whose deals depend on its scores (Tunk's: who is still in, K10) deals the
        # next from them; the seating must be the deal's (a seat left or joined: anew)
        scores_in=scores if len(scores) == len(seating) else (),
        game_number=turn.game_number,
        deal_in_game=turn.deal_in_game,
        bot_seats=frozenset(s.position for s in seating if s.is_bot),
    )


# --- after commit: the notice and the next bot --------------------------------------


def after_commit(
    deal: Deal,
    seating: list[club_api.SeatInfo],
    state: DealState | None = None,
    *,
    by: int | None = None,
) -> None:
    """After the commit: the table's notice (``by``: the user whose move it was, whose
    page has the move's answer and is not pushed the part again) and the next bot."""
    table_id, deal_id, version = deal.table_id, deal.pk, deal.version
    to_move = deal.to_move
    bots = {s.position for s in seating if s.is_bot}

    round_open = call_round.is_open(deal)

    # A deal dealt or ended changes the club panel (the washbook, the dealer, the last
    # deal); a move within a deal changes only the live part (issue 59).
    club = deal.finished or version == 0
    # A move within a deal: the consoles are told its table's line, not sent to fetch it
    lines = None if club else club_api.console_lines(deal, seating)

    def run() -> None:
        publish(table_id, deal_id, version, club=club, lines=lines, by=by)
        if round_open:  # nobody moves until it closes, the computer players neither
            schedule_close(deal_id, call_round.seconds_left(deal))
        elif to_move is not None and to_move in bots and not deal.finished:
            schedule_bot(deal_id, version)

    # the mover's answer does not wait for the notice's round trip, nor the next
    # computer player's: both go once it is sent (issue 59)
    transaction.on_commit(lambda: club_api.after_response(run))


def publish(
    table_id: int,
    deal_id: int,
    version: int,
    *,
    club: bool = False,
    lines: dict[str, str] | None = None,
    by: int | None = None,
) -> None:
    """Tell every browser at the table that it moved on (a version, never cards), and with
    ``club`` that its club panel changed too; the evening's consoles hear which table
    moved, with ``lines`` its console line in each language (``club.live.streams``), else
    to fetch it. ``by``,
    the mover's user, is for the table's streams alone (`games.play.events`)."""
    notice = {"version": version, "deal": deal_id, "table": table_id, "at": time.time()}
    mine = notice | ({"club": True} if club else {}) | ({"by": by} if by is not None else {})
    msg = json.dumps(mine)
    # the consoles' copy: the line, or (a deal dealt or ended) whether to fetch it
    told = json.dumps(
        notice | {"lines": lines} if lines else notice | ({"club": True} if club else {})
    )
    try:
        session_id = club_api.session_of_table(table_id)  # kept by the process
    except Exception:  # the console polls: never let it cost the table its move
        log.warning("no session found for table %s", table_id, exc_info=True)
        session_id = None
    try:  # the table's phones and the evening's consoles in one round trip (issue 59)
        pipe = club_api.redis_client().pipeline(transaction=False)
        pipe.set(club_api.redis_key("table", table_id, "last"), msg, ex=86400)
        pipe.publish(club_api.redis_key("table", table_id), msg)
        if session_id is not None:  # the secretary's console follows the deal too
            club_api.publish_session(session_id, told, pipe=pipe)
        pipe.execute()
    except Exception:  # browsers and consoles fall back to polling
        log.warning("could not publish table %s update", table_id, exc_info=True)


def bot_delay() -> float:
    lo, _, hi = settings.GAMES_BOT_DELAY.partition(",")
    lo_f = float(lo)
    return random.uniform(lo_f, float(hi or lo_f))


BOT_MOVE = "games.tasks.bot_move"  # queued by name: the tasks call this module, not back


def schedule_bot(deal_id: int, version: int) -> None:
    try:
        club_api.queue_task(BOT_MOVE, [deal_id, version], countdown=bot_delay())
    except Exception:  # the periodic sweep picks it up again
        log.warning("could not queue bot move for deal %s", deal_id, exc_info=True)


CLOSE_ROUND = "games.tasks.close_call_round"


def schedule_close(deal_id: int, seconds: float) -> None:
    """Close the deal's call round when its time is up (the sweep closes it if lost)."""
    try:
        club_api.queue_task(CLOSE_ROUND, [deal_id], countdown=seconds)
    except Exception:
        log.warning("could not queue the call round's close for deal %s", deal_id, exc_info=True)


def bot_level(table_id: int) -> str:
    return str(settings.GAMES_BOT_LEVEL)


def play_bot(deal_id: int, version: int, level: str | None = None) -> bool:
    """One bot move if the deal is still at ``version`` and a bot is to move; True only
    when this call applied it."""
    deal = Deal.objects.filter(pk=deal_id).first()
    if deal is None or deal.finished or deal.version != version or deal.to_move is None:
        return False
    seating = club_api.table_seating(deal.table_id)
    seat = deal.to_move
    info = next((s for s in seating if s.position == seat), None)
    if info is None or not info.is_bot:
        return False
    state = load_state(deal)
    legal = state.legal_actions(seat)
    if not legal:
        return False
    rng = random.Random(f"{deal.seed}:{version}")
    # A computer player that cannot choose raises (games.bots.BotError, or its own bug):
    # the task fails with the traceback in the worker's log, nothing is played in its
    # place, and the bot sweep tries the move again later.
    chosen = choose(level or bot_level(deal.table_id), state.player_view(seat), legal, rng)
    try:
        result = act(
            Move(
                deal.table_id,
                bot_seat=seat,
                version=version,
                deal_id=deal.pk,
                token=f"bot-{deal.pk}-{version}",
                action=chosen.to_json(),
            ),
            seating=seating,
        )
    except Rejection as e:
        log.info("bot move on deal %s v%s refused: %s", deal_id, version, e.message)
        return False
    # The same move delivered twice (a broker's redelivery racing the first): the second
    # finds the first's token and applies nothing, so it must not report a move.
    return not result.duplicate
