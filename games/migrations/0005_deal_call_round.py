"""Tonk's call round asks every player, at once, for the same few seconds (TO5, issue 58);
before, only the hands that could call were asked, in turn. A deal keeps the rule it was
dealt under, so that it replays as it was played: every Tonk deal written before says so
in its options and its snapshot's rules (``call_round: "courts"``, an option no table is
offered). The deal also records when its round closes and who has called in it."""

from typing import Any

from django.db import migrations, models


def dealt_before(apps: Any, schema_editor: Any) -> None:
    Deal = apps.get_model("games", "Deal")
    for deal in Deal.objects.filter(variant="tonk").iterator():
        deal.options = {**(deal.options or {}), "call_round": "courts"}
        snap = deal.snapshot
        if isinstance(snap, dict) and isinstance(snap.get("rules"), dict):
            rules = snap["rules"]
            snap = {**snap, "rules": {**rules, "options": {**rules.get("options", {}),
                                                          "call_round": "courts"}}}  # fmt: skip
        deal.snapshot = snap
        deal.save(update_fields=["options", "snapshot"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_deal_scores_in"),
    ]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="call_round_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="deal",
            name="called",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(dealt_before, migrations.RunPython.noop),
    ]
