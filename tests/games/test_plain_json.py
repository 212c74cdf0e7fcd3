"""The site's JSON text (frames, stored documents): what the stdlib would write."""

from __future__ import annotations

import json
import random

from games.plain_json import dumps


def stdlib(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_dumps_writes_what_the_stdlib_writes():
    rng = random.Random(7)
    leaves = [
        0,
        -3,
        2**63 - 1,
        -(2**63),
        1.5,
        0.1,
        1e20,
        True,
        False,
        None,
        "",
        "é</script>",
        "\u2028",
    ]

    def value(depth: int = 0) -> object:
        pick = rng.random()
        if depth > 3 or pick < 0.4:
            return rng.choice(leaves)
        if pick < 0.7:
            return [value(depth + 1) for _ in range(rng.randint(0, 4))]
        return {rng.choice(["a", "b/c", "ü"]): value(depth + 1) for _ in range(3)}

    for _ in range(2000):
        doc = value()
        assert dumps(doc) == stdlib(doc), doc
    assert (
        dumps({1: [1, 2], "s": (3, 4)}) == '{"1":[1,2],"s":[3,4]}'
    )  # keys as text, tuples as lists


def test_an_integer_beyond_64_bits_is_written_too():
    """A client's ``ref`` is echoed in its answer, whatever number it is."""
    for ref in (2**64, 2**70, -(2**70), 10**30):
        assert dumps({"type": "error", "ref": ref}) == stdlib({"type": "error", "ref": ref})
