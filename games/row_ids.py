"""A client's value as a row's primary key: one parser for every lookup by id."""

from __future__ import annotations

# A bigint's range: PostgreSQL refuses a query with a larger id outright.
PK_LIMIT = 2**63


def row_pk(value: object) -> int | None:
    """``value`` as a primary key (a positive 64-bit id, or its digits), or
    None if it cannot be one."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    try:
        pk = int(value)
    except ValueError:
        return None
    return pk if 0 < pk < PK_LIMIT else None
