from django.conf import settings
from django.db import migrations, models

ENDED = ("finished", "aborted")


def mark_ended_seats(apps, schema_editor):
    """The seats of every game that has already ended. A game the previous
    release ends after this runs keeps its seats unmarked: the completion
    rate reads an unmarked seat's game by key, so it stays exact."""
    Seat = apps.get_model("games", "Seat")
    Seat.objects.filter(game__status__in=ENDED, game_ended=False).update(game_ended=True)


class Migration(migrations.Migration):
    # The completion rate counts a player's ended games from the seat index
    # alone (docs/performance.md, "The player page and My games", issue 54
    # item 3). The covering index is built before the old one goes; it
    # serves the old code's reads on (user, -game) just as well.

    dependencies = [
        ("games", "0028_one_screen"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="game_ended",
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.RunPython(mark_ended_seats, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                fields=["user", "-game"], include=("game_ended",), name="seat_user_newest_ended"
            ),
        ),
        migrations.RemoveIndex(model_name="seat", name="seat_user_newest"),
    ]
