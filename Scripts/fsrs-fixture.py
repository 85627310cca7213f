"""Writes the JSON fixture that the Swift FSRS-6 scheduler is checked against.

It drives the Python reference implementation, `fsrs==6.3.2` (py-fsrs), through
random review histories and records, after every review, what the reference
says: state, step, stability, difficulty, due instant and interval. It also
records `get_card_retrievability` just before each review, and a table of fuzz
cases (the reference's `_get_fuzzed_interval` with its random number pinned).

The histories cover: default and random (in-bounds) weights, desired retention
0.9 and random values in 0.70...0.97, default, custom and empty learning /
relearning steps, small maximum intervals, and gaps from one second to years,
including gaps of exactly N days and N days +- 1 microsecond (the reference
counts elapsed days as `timedelta.days`, i.e. whole days rounded down). Fuzz is
OFF for the histories. Everything comes from one seeded `random.Random`, so the
output is the same on every run.

Times are integer microseconds since 1970-01-01T00:00:00Z (exact, unlike a
decimal number of seconds). Floats are written in full (Python's shortest
round-trip repr), never rounded.

Run:
    python3 -m venv .venv && .venv/bin/pip install fsrs==6.3.2
    .venv/bin/python3 Scripts/fsrs-fixture.py > Tests/SharedKernelTests/Fixtures/fsrs-6.3.2-histories.json

Format (one history per line):
    {"reference": "fsrs==6.3.2", "seed": ..., "histories": [
      {"w": [21 floats] or null (defaults), "retention": r, "learning": [seconds],
       "relearning": [seconds], "max": days, "created": us,
       "reviews": [[grade, at_us, retrievability_before, state, step, stability,
                    difficulty, due_us, interval_us], ...]}, ...],
     "fuzz": [[interval_days, maximum_interval, random_value, fuzzed_days], ...]}
    grade: 1 again, 2 hard, 3 good, 4 easy; state: 1 learning, 2 review, 3 relearning.
"""

import json
import random
import sys
from datetime import datetime, timedelta, timezone
from importlib.metadata import version

import fsrs.scheduler as reference_module
from fsrs import Card, Rating, Scheduler
from fsrs.scheduler import (
    DEFAULT_PARAMETERS,
    LOWER_BOUNDS_PARAMETERS,
    UPPER_BOUNDS_PARAMETERS,
)

SEED = 20260416
HISTORIES = 1000
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
DAY_US = 86_400 * 1_000_000

LEARNING_STEPS = [(60, 600)] * 5 + [(), (600,), (60, 600, 3600), (30, 300, 86_400), (1800, 2 * 86_400)]
RELEARNING_STEPS = [(600,)] * 5 + [(), (300, 3600), (86_400,), (600, 1200, 1800)]
MAXIMUM_INTERVALS = [36_500] * 8 + [30, 365, 3650]


def to_us(moment: datetime) -> int:
    delta = moment - EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_us(us: int) -> datetime:
    return EPOCH + timedelta(microseconds=us)


def random_weights(rng: random.Random) -> list[float]:
    """In-bounds weights near the defaults, so every weight's role is exercised."""
    weights = []
    for default, low, high in zip(DEFAULT_PARAMETERS, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS):
        value = default * rng.uniform(0.5, 1.5)
        if rng.random() < 0.2:
            value = rng.uniform(low, min(high, max(default * 3, low + 0.1)))
        weights.append(min(max(value, low), high))
    return weights


def next_gap_us(rng: random.Random, now_us: int, due_us: int) -> int:
    """Seconds (same-day, short-term path) to years (long-interval path)."""
    kind = rng.random()
    if kind < 0.20:
        seconds = rng.uniform(1, 3600)
    elif kind < 0.30:
        seconds = rng.uniform(3600, 86_400)
    elif kind < 0.50:  # around the due instant, as a learner would
        seconds = max(1.0, (due_us - now_us) / 1e6 + rng.uniform(-3600, 3 * 86_400))
    elif kind < 0.70:
        seconds = rng.uniform(1, 30) * 86_400
    elif kind < 0.85:
        seconds = rng.uniform(30, 365) * 86_400
    elif kind < 0.92:
        seconds = rng.uniform(365, 1500) * 86_400
    else:  # whole-day boundaries: N days, and N days -+ 1 microsecond
        return rng.randint(1, 10) * DAY_US + rng.choice((-1, 0, 1))
    return int(seconds * 1_000_000) + rng.randint(0, 999_999)


def make_history(rng: random.Random) -> dict:
    custom = rng.random() < 0.15
    weights = random_weights(rng) if custom else list(DEFAULT_PARAMETERS)
    retention = 0.9 if rng.random() < 0.65 else rng.uniform(0.70, 0.97)
    learning = rng.choice(LEARNING_STEPS)
    relearning = rng.choice(RELEARNING_STEPS)
    maximum = rng.choice(MAXIMUM_INTERVALS)
    scheduler = Scheduler(
        parameters=weights,
        desired_retention=retention,
        learning_steps=[timedelta(seconds=s) for s in learning],
        relearning_steps=[timedelta(seconds=s) for s in relearning],
        maximum_interval=maximum,
        enable_fuzzing=False,
    )
    # 2020-01-01 ... 2030-01-01, with microseconds.
    created_us = rng.randint(1_577_836_800_000_000, 1_893_456_000_000_000)
    card = Card(card_id=1, due=from_us(created_us))
    now_us = created_us + rng.choice((0, rng.randint(1, 10 * DAY_US)))
    reviews = []
    for _ in range(rng.randint(1, 25)):
        grade = rng.choices((1, 2, 3, 4), weights=(20, 15, 50, 15))[0]
        at = from_us(now_us)
        before = scheduler.get_card_retrievability(card, current_datetime=at)
        card, _ = scheduler.review_card(card, Rating(grade), review_datetime=at)
        due_us = to_us(card.due)
        reviews.append([grade, now_us, before, int(card.state), card.step,
                        card.stability, card.difficulty, due_us, due_us - now_us])
        now_us += next_gap_us(rng, now_us, due_us)
    return {
        "w": weights if custom else None,
        "retention": retention,
        "learning": list(learning),
        "relearning": list(relearning),
        "max": maximum,
        "created": created_us,
        "reviews": reviews,
    }


def fuzz_cases(rng: random.Random) -> list[list]:
    """The reference's fuzz with its `random()` pinned to chosen values."""
    intervals = list(range(1, 41)) + [rng.randint(41, 36_500) for _ in range(60)]
    units = [0.0, 0.25, 0.5, 0.75, 0.999_999_999]
    cases = []
    original = reference_module.random
    try:
        for days in intervals:
            maximum = rng.choice((36_500, 36_500, 36_500, 10, 50, 400))
            scheduler = Scheduler(maximum_interval=maximum, enable_fuzzing=True)
            for unit in units + [rng.random(), rng.random()]:
                reference_module.random = lambda unit=unit: unit
                fuzzed = scheduler._get_fuzzed_interval(interval=timedelta(days=days))
                cases.append([days, maximum, unit, fuzzed.days])
    finally:
        reference_module.random = original
    return cases


def main() -> None:
    assert version("fsrs") == "6.3.2", "install fsrs==6.3.2"
    rng = random.Random(SEED)
    histories = [make_history(rng) for _ in range(HISTORIES)]
    compact = {"separators": (",", ":")}
    out = sys.stdout
    out.write('{"reference":"fsrs==6.3.2","seed":%d,"histories":[\n' % SEED)
    out.write(",\n".join(json.dumps(h, **compact) for h in histories))
    out.write('\n],"fuzz":')
    out.write(json.dumps(fuzz_cases(rng), **compact))
    out.write("}\n")


if __name__ == "__main__":
    main()
