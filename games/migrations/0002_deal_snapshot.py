"""Deal state as the engine's versioned JSON snapshot instead of a pickle (issue 25).

Forwards: add ``Deal.snapshot``; fill it for every deal by replaying the deal's pack and
action log through the engine (the stored pickles are never read: unpickling a column
anyone could have written runs code); drop ``state_blob``.

Backwards: ``state_blob`` comes back empty (NULL) and ``snapshot`` goes. That is a real
reverse, not a loss: the code before this migration loads a deal whose blob is NULL by
replaying its pack and log, exactly as this migration does.

The engine is imported inside the functions, so that later moves of its modules break
nothing at import time of the migration graph.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

BATCH = 200


def replay_snapshot(deal: Any, log: list[tuple[int, Any]]) -> dict[str, Any]:
    """The snapshot of a deal after its logged actions, replayed from its pack."""
    from games.engine.cards import Card
    from games.engine.deal import new_deal
    from games.engine.rules import make_rules

    rules = make_rules(deal.variant, dict(deal.options or {}))
    pack = [Card.from_code(c) for c in deal.pack]
    state = new_deal(
        rules, deal.players, deal.dealer, seed=deal.seed, pack=pack, carry_in=deal.carry_in
    )
    for _seat, data in log:
        state.apply(rules.spec.parse_action(data))
    return state.to_json()


def fill_snapshots(apps: Any, schema_editor: Any) -> None:
    from games.engine.errors import IllegalActionError, InvalidActionError

    Deal = apps.get_model("games", "Deal")
    DealAction = apps.get_model("games", "DealAction")
    failed: list[int] = []
    ids = list(Deal.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH):
        for deal in Deal.objects.filter(pk__in=ids[start : start + BATCH]).defer("state_blob"):
            log = list(
                DealAction.objects.filter(deal_id=deal.pk)
                .order_by("index")
                .values_list("seat", "action")
            )
            try:
                snap = replay_snapshot(deal, log)
            except (
                InvalidActionError,
                IllegalActionError,
            ) as e:  # a log the engine refuses: the deal keeps no snapshot
                failed.append(deal.pk)
                print(f"\n  deal {deal.pk}: not replayable ({e}); left without a snapshot")
                continue
            Deal.objects.filter(pk=deal.pk).update(snapshot=snap)
    if failed:
        print(f"\n  {len(failed)} deal(s) left without a snapshot: {failed[:20]}")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="snapshot",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        # Backwards there is nothing to undo here: the snapshot column goes next.
        migrations.RunPython(fill_snapshots, migrations.RunPython.noop, elidable=False),
        migrations.RemoveField(
            model_name="deal",
            name="state_blob",
        ),
    ]
