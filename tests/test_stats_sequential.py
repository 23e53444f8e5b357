"""Sequential t-test (Algorithm 5.1): hand-computed values, laziness, q choices."""

import math

import numpy as np
import pytest
from scipy import stats

from textbcv.stats.sequential import SequentialTTest, sequential_t_test, var2


def test_state_by_hand():
    d = [(0.02, 0.03), (0.025, 0.02), (0.03, 0.028)]
    test = SequentialTTest(alpha=0.05, M=5)
    for row in d:
        state = test.update(row)
    v = np.ravel(d)
    s2 = np.mean((v - v.mean()) ** 2)
    assert state.var2 == pytest.approx(s2)
    assert state.C_hat == pytest.approx(math.sqrt(7 / 5))
    assert state.f_hat == 5
    assert state.boundary == pytest.approx(math.sqrt(7 / 5) * math.sqrt(s2) * stats.t.isf(0.025, 5))
    half = math.sqrt(7 / 5) * math.sqrt(s2) * stats.t.isf(0.025, 5)
    assert state.ci == pytest.approx((v.mean() - half, v.mean() + half))
    assert state.decision == "reject H0"
    with pytest.raises(ValueError):
        test.update((0.0, 0.0))  # already stopped


def test_q_alpha_is_less_strict():
    d = [(0.01, 0.02), (0.0, 0.015), (0.012, 0.01)]
    assert sequential_t_test(d, q="alpha/2")["decision"] == "do not reject H0"
    r = sequential_t_test(d, q="alpha")
    assert r["t_q"] == pytest.approx(stats.t.isf(0.05, 5))
    assert r["boundary"] < sequential_t_test(d, q="alpha/2")["boundary"]


def test_lazy_run_asks_only_for_needed_splits():
    asked = []

    def next_split(j):
        asked.append(j)
        return (0.05, 0.06) if j % 2 else (0.055, 0.05)

    state = SequentialTTest(m_start=3, M=12).run(next_split)
    assert state.decision == "reject H0" and state.m == 3
    assert asked == [0, 1, 2]

    asked.clear()
    state = SequentialTTest(m_start=3, M=6).run(lambda j: asked.append(j) or (0.01 * (-1) ** j, -0.01 * (-1) ** j))
    assert state.decision == "do not reject H0" and state.m == 6 and asked == list(range(6))


def test_never_rejects_before_m_start_and_delta_shifts():
    t = SequentialTTest(m_start=3, M=5)
    assert t.update((0.1, 0.1001)).decision == "continue"
    assert t.update((0.1, 0.1002)).decision == "continue"
    assert t.update((0.1, 0.1003)).decision == "reject H0"
    assert sequential_t_test([(0.1, 0.1001), (0.1, 0.1002), (0.1, 0.1003)], delta=0.2)["decision"] == "do not reject H0"


def test_var2():
    assert var2([1, 2, 3, 4]) == pytest.approx(np.var([1, 2, 3, 4]))


def test_type_one_error_on_independent_normal_folds():
    # with independent folds (ρ = 0) Ĉ_m > C_m, so the test is conservative at μ = Δ
    rng = np.random.default_rng(0)
    rej = 0
    for _ in range(2000):
        d = rng.standard_normal((12, 2))
        rej += sequential_t_test(d, M=12, q="alpha")["decision"] == "reject H0"
    assert rej / 2000 < 0.05


def test_measured_rule_goes_on_where_the_models_noise_was_not_measured_or_p_is_near_the_threshold():
    from textbcv.stats.sequential import MEASURED_BAND, STOP_RULES, stop_reason

    assert "measured" in STOP_RULES
    lo, hi = MEASURED_BAND
    assert stop_reason("measured", [], [0.999], 0.95, floored=[False]) is not None  # clear and measured: stop
    assert stop_reason("measured", [], [0.6], 0.95, floored=[False]) is not None  # far from a call: stop
    assert stop_reason("measured", [], [0.999], 0.95, floored=[True]) is None  # floored: on to the last m
    assert stop_reason("measured", [], [lo], 0.95, floored=[False]) is None
    assert stop_reason("measured", [], [hi], 0.95, floored=[False]) is not None
    assert stop_reason("measured", [], [0.999, 0.96], 0.95, floored=[False, False]) is None  # any pair in the band


def test_compare_command_offers_every_stop_rule(capsys):
    """The command line's --stop choices are the rules stop_reason knows (the CLI keeps its own tuple so that
    `textbcv --help` does not import the statistics)."""
    import re

    import pytest

    from textbcv.cli import main
    from textbcv.stats.sequential import STOP_RULES

    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert re.search(r"--stop \{([^}]*)\}", text).group(1).split(",") == list(STOP_RULES)
