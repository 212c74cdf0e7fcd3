"""Every name's look-alike form (accounts/names.py), filled for the accounts
that exist: sign-ups are compared with it (issue 47, item 7)."""

from django.db import migrations, models

from accounts.names import MAX_LENGTH, skeleton


def fill(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    batch = []
    for user in User.objects.only("pk", "username").iterator(chunk_size=2000):
        user.name_skeleton = skeleton(user.username)
        batch.append(user)
        if len(batch) >= 2000:
            User.objects.bulk_update(batch, ["name_skeleton"])
            batch = []
    User.objects.bulk_update(batch, ["name_skeleton"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0006_api_tokens_and_bot_accounts")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="name_skeleton",
            field=models.CharField(db_index=True, default="", editable=False, max_length=MAX_LENGTH),
            preserve_default=False,
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
