"""Every challenge of the course has wrong solutions with a hint, read from the course (nothing graded): the
challenges whose hints tests/integration/test_seven_mistakes.py grades."""

from __future__ import annotations

from tests.helpers import the_course


def hinted() -> list[tuple[str, list]]:
    """(challenge, its wrong solutions with a hint) for every challenge of the course that has some."""
    found = []
    for track in the_course():
        for ex in track.exercises:
            wrongs = [w for w in ex.wrong_solutions if w.hint]
            if wrongs:
                found.append((ex.slug, wrongs))
    return found


def test_every_challenge_has_a_central_mistake_with_a_hint():
    assert sorted(slug for slug, _ in hinted()) == sorted(ex.slug for t in the_course() for ex in t.exercises)
