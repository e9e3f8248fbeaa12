"""Make a release's upgrade fixture (issue 57, item 5), run with THAT release's code.

    git worktree add /tmp/rel <commit> && (cd /tmp/rel && make install)
    createdb -h 127.0.0.1 -U postgres cooncan_release      # PostgreSQL 15: its pg_dump's
    cd /tmp/rel && DATABASE_URL=postgres://postgres@127.0.0.1:5432/cooncan_release \\
      SECRET_KEY=x DB_POOL=0 .venv/bin/python manage.py migrate
    ... .venv/bin/python manage.py demo
    ... .venv/bin/python /work/main/tests/data/releases/make_fixture.py <commit>
    pg_dump -h 127.0.0.1 -U postgres -Fc --no-owner --no-privileges cooncan_release \\
      > /work/main/tests/data/releases/<commit>.dump

The demo club (a balanced evening, an open one), plus a practice deal of every game
played part way (people's moves chosen at random from a fixed seed, computer players'
moves by the bots), then what the test checks after the upgrade: every member's balance
and the number of deals, written to ``<commit>.json`` beside the dump. PostgreSQL 15's
``pg_dump`` writes an archive every later ``pg_restore`` reads.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path


def main(commit: str) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    sys.path.insert(0, os.getcwd())  # the release's code, run from its worktree
    django.setup()

    from club.models import Member
    from club.services.ledger import balance_of
    from club.services.practice import create_practice_table
    from games.models import Deal
    from games.play import services as games

    alice = Member.objects.get(user__username="alice")
    rng = random.Random(57)
    for variant, players in (("foster", 4), ("foster-three", 3), ("conquian", 2),
                             ("colonel", 2), ("tonk", 3), ("tunk", 3)):  # fmt: skip
        table = create_practice_table(alice, variant, players)
        games.ensure_deal(table.pk)
        for _ in range(30):
            deal = games.current_deal(table.pk)
            assert deal is not None
            state = games.load_state(deal)
            seat = state.to_move()
            if seat is None or deal.finished:
                break
            if deal.bot_turn:
                games.play_bot(deal.pk, deal.version)
                continue
            action = rng.choice(state.legal_actions(seat))
            games.act(table.pk, member_id=alice.pk, version=deal.version, deal_id=deal.pk,
                      action=json.loads(json.dumps(action.to_json())))  # fmt: skip
    books = {
        "commit": commit,
        "balances": {
            m.user.username: str(balance_of(m.pk))
            for m in Member.objects.filter(is_bot=False).select_related("user")
        },
        "deals": Deal.objects.count(),
        "actions": sum(d.log.count() for d in Deal.objects.all()),
    }
    out = Path(__file__).with_name(f"{commit}.json")
    out.write_text(json.dumps(books, indent=2, sort_keys=True) + "\n")
    print(out, books["deals"], "deals,", books["actions"], "actions")


if __name__ == "__main__":
    main(sys.argv[1])
