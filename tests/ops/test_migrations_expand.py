"""Schema changes without downtime: every migration of the tree must be able
to run while the previous release's code is serving (docs/deploy.md,
"Migrations: expand, then contract").

The previous release's code knows the tables and columns as they were
before the migration. So a migration may only expand what that code sees:

- a new column is nullable or has a database default (``db_default``): the
  old code's INSERTs leave it out; Django's ``default`` alone is no default
  in the database, so such a column fails every INSERT of the old code;
- no column or table is dropped or renamed, and no column changes its type
  or becomes NOT NULL, in the release that stops reading it.

Contracting takes two releases. Release N stops reading: its migration
removes the field or model from Django's state only
(``SeparateDatabaseAndState(state_operations=[...])``), which the rule allows
when the lingering column is nullable or has a database default (release
N's INSERTs leave it out). Release N+1 drops it: a migration marked
``contract = True`` that names what it drops in ``drops`` (``"app.model"`` or
``"app.model.field"``), each already gone from the state, so no code of the
release before it reads them; only such a migration may drop, rename,
retype or tighten (NOT NULL after a backfill).

Migrations released before this rule (each deployed with every process
stopped) are listed in ``BEFORE_THE_RULE`` and not checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, migrations, models
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.state import ProjectState

OURS = ("accounts", "games", "lobby", "moderation")
BEFORE_THE_RULE = frozenset(
    {
        *(
            ("accounts", name)
            for name in (
                "0001_initial",
                "0002_language",
                "0003_user_is_bot",
                "0004_blocks_and_follows",
                "0005_people29_guests_and_follow_notices",
                "0006_api_tokens_and_bot_accounts",
                "0007_user_name_skeleton",
            )
        ),
        *(
            ("games", name)
            for name in (
                "0001_initial",
                "0002_lifecycle",
                "0003_imported",
                "0004_timers_and_records",
                "0005_remis",
                "0006_auto_start",
                "0007_outgoing_mail",
                "0007_remis_limits",
                "0007_replay_checkpoints_and_record_summaries",
                "0008_merge_outbox_and_remis_limits",
                "0009_merge_replays_into_outbox_and_remis",
                "0010_remove_presence",
                "0011_bot_seats",
                "0012_ratings",
                "0013_rematch",
                "0014_push_subscriptions",
                "0015_correspondence_comforts",
                "0016_import_jobs",
                "0017_keep_games_of_deleted_users",
                "0018_due_columns_and_newest_indexes",
                "0019_followed_start_notices",
                "0020_remis_queue_keyset",
                "0021_conditional_plans",
                "0022_forced_turns",
                "0023_round_start_notices",
                "0024_rating_board_covering",
                "0025_rating_board_established",
            )
        ),
        ("lobby", "0001_tournaments"),
        ("lobby", "0002_tournament_rounds_featured_chat"),
        ("moderation", "0001_fair_play"),
    }
)
DROPPING = (migrations.RemoveField, migrations.DeleteModel)
RENAMING = (migrations.RenameField, migrations.RenameModel)
DESTRUCTIVE_SQL = re.compile(r"\b(DROP\s+(COLUMN|TABLE)|RENAME\b|SET\s+NOT\s+NULL)", re.I)


def lingers_safely(field: models.Field) -> bool:
    """A column the code no longer writes: its INSERTs leave it out."""
    return field.null or field.db_default is not models.NOT_PROVIDED or field.many_to_many


def field_in(state: ProjectState, app: str, model: str, name: str) -> models.Field | None:
    found = state.models.get((app, model.lower()))
    return None if found is None else found.fields.get(name)


def problems(app: str, migration: Any, state: ProjectState) -> list[str]:
    """What in ``migration`` (applied to ``state``, the state before it)
    the previous release's code could not serve through; empty: fine."""
    contract = getattr(migration, "contract", False)
    found = [*check_drops(app, migration, state)] if contract else []
    created: set[str] = set()
    for op in migration.operations:
        found += check(app, op, state, created, contract)
        op.state_forwards(app, state)
    return found


def check_drops(app: str, migration: Any, state: ProjectState) -> Iterator[str]:
    drops = getattr(migration, "drops", ())
    if not drops:
        yield "a contract migration names what it drops (drops = [...])"
    for label in drops:
        app_label, model, *field = label.split(".")
        gone = (
            (app_label, model) not in state.models
            if not field
            else field_in(state, app_label, model, field[0]) is None
        )
        if not gone:
            yield f"{label} is still in the models: remove it from the state a release earlier"


def check(app: str, op: Any, state: ProjectState, created: set[str], contract: bool) -> list[str]:
    if isinstance(op, migrations.CreateModel):
        created.add(op.name_lower)
        return []
    if isinstance(op, migrations.SeparateDatabaseAndState):
        return state_only(app, op, state) + [
            p
            for inner in op.database_operations
            for p in check(app, inner, state, created, contract)
        ]
    if isinstance(op, migrations.AddField):
        return added(op, created)
    if contract:
        return []
    if isinstance(op, DROPPING + RENAMING):
        return [f"{type(op).__name__} {describe(op)}: only a contract migration may drop or rename"]
    if isinstance(op, migrations.AlterField):
        return altered(app, op, state)
    if isinstance(op, migrations.RunSQL) and DESTRUCTIVE_SQL.search(str(op.sql)):
        return [f"RunSQL drops, renames or tightens: only in a contract migration ({op.sql!r:.60})"]
    return []


def state_only(app: str, op: Any, state: ProjectState) -> list[str]:
    """Release N stops reading a column, which stays: its INSERTs must work."""
    found = []
    for inner in op.state_operations:
        if isinstance(inner, migrations.RemoveField):
            field = field_in(state, app, inner.model_name, inner.name)
            if field is not None and not lingers_safely(field):
                found.append(
                    f"{describe(inner)} leaves a NOT NULL column without a database "
                    "default: make it nullable (or db_default) first"
                )
    return found


def added(op: Any, created: set[str]) -> list[str]:
    if op.model_name_lower in created or lingers_safely(op.field):
        return []
    return [
        f"AddField {describe(op)} is NOT NULL without db_default: the previous "
        "release's INSERTs fail; add it nullable or with db_default"
    ]


def altered(app: str, op: Any, state: ProjectState) -> list[str]:
    old = field_in(state, app, op.model_name, op.name)
    if old is None:
        return []
    new = op.field
    found = []
    if old.null and not new.null and new.db_default is models.NOT_PROVIDED:
        found.append(f"AlterField {describe(op)} to NOT NULL: in a contract migration")
    if old.db_type(connection) != new.db_type(connection) or old.db_column != new.db_column:
        found.append(f"AlterField {describe(op)} changes the column: add a new one instead")
    return found


def describe(op: Any) -> str:
    model = getattr(op, "model_name", None) or getattr(op, "name", "")
    name = getattr(op, "name", "") if hasattr(op, "model_name") else ""
    return f"{model}.{name}" if name else str(model)


def tree() -> Iterator[tuple[tuple[str, str], Any, ProjectState]]:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    for key in sorted(k for k in loader.graph.nodes if k[0] in OURS):
        parents = [p.key for p in loader.graph.node_map[key].parents]
        state = loader.project_state(parents, at_end=True) if parents else ProjectState()
        yield key, loader.graph.nodes[key], state


def test_every_migration_can_run_under_the_previous_release():
    checked, refused = [], {}
    for key, migration, state in tree():
        if key in BEFORE_THE_RULE:
            continue
        checked.append(key)
        found = problems(key[0], migration, state)
        if found:
            refused[key] = found
    assert not refused, refused
    known = {k for k, _, _ in tree()}
    assert known >= BEFORE_THE_RULE, BEFORE_THE_RULE - known  # no stale entry


# -- the rule on migrations made up here ------------------------------------------


def state_of(*fields: tuple[str, models.Field]) -> ProjectState:
    state = ProjectState()
    migrations.CreateModel(
        "Thing", [("id", models.AutoField(primary_key=True)), *fields]
    ).state_forwards("demo", state)
    return state


def made(*operations: Any, **marks: Any) -> Any:
    return type("Migration", (migrations.Migration,), {"operations": list(operations), **marks})(
        "0002_made", "demo"
    )


@pytest.mark.parametrize(
    ("operation", "refused"),
    [
        (migrations.AddField("thing", "n", models.IntegerField(default=0)), True),
        (migrations.AddField("thing", "n", models.IntegerField(null=True)), False),
        (migrations.AddField("thing", "n", models.IntegerField(db_default=0)), False),
        (migrations.RemoveField("thing", "old"), True),
        (migrations.RenameField("thing", "old", "new"), True),
        (migrations.DeleteModel("thing"), True),
        (migrations.RenameModel("thing", "other"), True),
        (migrations.AlterField("thing", "maybe", models.IntegerField()), True),
        (migrations.AlterField("thing", "old", models.BigIntegerField()), True),
        (migrations.AlterField("thing", "old", models.IntegerField(help_text="why")), False),
        (migrations.RunSQL("ALTER TABLE demo_thing DROP COLUMN old"), True),
        (migrations.RunSQL("UPDATE demo_thing SET maybe = 0 WHERE maybe IS NULL"), False),
    ],
)
def test_the_rule_refuses_what_the_old_code_cannot_serve(operation, refused):
    state = state_of(("old", models.IntegerField()), ("maybe", models.IntegerField(null=True)))
    assert bool(problems("demo", made(operation), state)) is refused


def test_a_column_is_dropped_over_two_releases():
    state = state_of(("old", models.IntegerField()), ("maybe", models.IntegerField(null=True)))
    stop_reading_not_null = made(
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.RemoveField("thing", "old")]
        )
    )
    assert problems("demo", stop_reading_not_null, state.clone())  # its INSERTs would fail
    stop_reading = made(
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.RemoveField("thing", "maybe")]
        )
    )
    assert problems("demo", stop_reading, state) == []  # release N (state moved on)
    drop = migrations.RunSQL("ALTER TABLE demo_thing DROP COLUMN maybe")
    assert problems("demo", made(drop, contract=True, drops=["demo.thing.maybe"]), state) == []
    # Dropping what the code still reads, or naming nothing, is refused.
    assert problems("demo", made(drop, contract=True, drops=["demo.thing.old"]), state)
    assert problems("demo", made(drop, contract=True), state)
