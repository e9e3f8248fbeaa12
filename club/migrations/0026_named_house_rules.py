"""The sources' named sets of house rules (issue 80) for a club started before them: each
the registry names ("Conquián as played today" beside "Foster's Conquián"), added where
the club has no set of that name for the game. A club not yet started gets them when it
starts (club.services.setup); an empty database gets nothing here."""

from django.db import migrations


def add(apps, schema_editor):  # type: ignore[no-untyped-def]
    from games.engine.rules import make_rules
    from games.engine.variant import VARIANTS

    Club = apps.get_model("club", "Club")
    Member = apps.get_model("club", "Member")
    HouseRules = apps.get_model("club", "HouseRules")
    started = Club.objects.filter(started_at__isnull=False).exists()
    if not started and not Member.objects.filter(is_bot=False).exists():
        return
    for variant, game in VARIANTS.items():
        for name, options in game.named_sets:
            if HouseRules.objects.filter(variant=variant, name__iexact=name).exists():
                continue
            rules = make_rules(variant, dict(options))  # every option, checked by the engine
            HouseRules.objects.create(
                name=name,
                variant=variant,
                options={o.name: rules.opt(o.name) for o in game.options},
            )


class Migration(migrations.Migration):
    dependencies = [("club", "0025_posting_kind_evening_balanced")]

    operations = [migrations.RunPython(add, migrations.RunPython.noop)]
