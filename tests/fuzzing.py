"""Hypothesis's profiles for the suite, registered when tests/environment.py is loaded (before Hypothesis
reads ``--hypothesis-profile``), and each property test's share of them.

- ``default``: what ``python -m pytest`` and CI run: every test its full count (:func:`examples`);
- ``ci``: Hypothesis loads it by itself where the ``CI`` variable is set; the same counts, derandomized and
  without the example database (a run gives the same examples every time);
- ``quick``: a tenth of the examples, for a look while working
  (``python -m pytest --hypothesis-profile=quick``, or ``HYPOTHESIS_PROFILE=quick``);
- ``thorough``: ten times as many, for a night (the malformed requests of tests/test_bad_requests.py: 30 an
  endpoint instead of 3).

The tests differ in what an example costs (a parsed form, a request with two snapshots of the database), so
each asks for its own count, as a share of the profile's: ``@settings(max_examples=examples(400))`` is 400 in
the default profile, 40 in ``quick``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

#: A test's examples are counted in a profile of this many (Hypothesis's own default).
BASE = 100

# An example may take long: a request through the whole app, a replayed game.
settings.register_profile(
    "default", max_examples=BASE, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", settings.get_profile("default"), derandomize=True, database=None, print_blob=True
)
settings.register_profile("quick", settings.get_profile("default"), max_examples=BASE // 10)
settings.register_profile("thorough", settings.get_profile("default"), max_examples=BASE * 10)
if os.environ.get("HYPOTHESIS_PROFILE"):  # --hypothesis-profile, read after this, wins
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])


def examples(count: int) -> int:
    """``count`` examples in the default profile, as many more or fewer as the profile loaded asks for."""
    return max(1, count * settings.default.max_examples // BASE)
