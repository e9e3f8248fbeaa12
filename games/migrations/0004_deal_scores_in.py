"""A deal records the game's scores it was dealt from (Tunk's game to 100), so that a
replay from its log starts where the game stood: before, replaying the second deal of a
Tunk game started every player at 0 (found by the upgrade test, issue 57). Deals written
before have the scores in their snapshot: copied from there."""

from typing import Any

from django.db import migrations, models


def from_snapshots(apps: Any, schema_editor: Any) -> None:
    Deal = apps.get_model("games", "Deal")
    for pk, snapshot in Deal.objects.filter(snapshot__isnull=False).values_list("pk", "snapshot"):
        scores = snapshot.get("scores_in") if isinstance(snapshot, dict) else None
        if scores:
            Deal.objects.filter(pk=pk).update(scores_in=list(scores))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_deal_moved_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="scores_in",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(from_snapshots, migrations.RunPython.noop),
    ]
