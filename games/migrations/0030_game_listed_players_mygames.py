from django.db import migrations, models, transaction

BATCH = 2000


def list_players(apps, schema_editor):
    """Every started game's players as lists name them, a batch of games at a
    time, each batch its own transaction (the previous release serves on: its
    moves wait on a batch's row locks, not on the whole table's). A game the
    previous release starts meanwhile keeps None: its seats are read."""
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    started = Game.objects.exclude(status="open").filter(listed_players__isnull=True)
    last = 0
    while ids := list(
        started.filter(pk__gt=last).order_by("pk").values_list("pk", flat=True)[:BATCH]
    ):
        lists = {pk: [] for pk in ids}
        seats = (
            Seat.objects.filter(game_id__in=ids)
            .order_by("game_id", "index")
            .values_list("game_id", "index", "user_id", "user__username", "user__is_bot")
        )
        for game_id, index, user_id, username, bot in seats:
            listed = lists[game_id]
            listed.extend([None] * (index + 1 - len(listed)))
            listed[index] = None if user_id is None else [user_id, username, bool(bot)]
        with transaction.atomic():
            Game.objects.bulk_update(
                [Game(pk=pk, listed_players=listed) for pk, listed in lists.items()],
                ["listed_players"],
                batch_size=500,
            )
        last = ids[-1]


class Migration(migrations.Migration):
    # My games reads its page's players from the game rows (docs/performance.md,
    # "The player page and My games", issue 54 item 3). Not one transaction:
    # the backfill commits a batch at a time.
    atomic = False

    dependencies = [
        ("games", "0029_seat_game_ended_mygames"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="listed_players",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.RunPython(list_players, migrations.RunPython.noop),
    ]
