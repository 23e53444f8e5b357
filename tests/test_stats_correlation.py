"""Correlation factors against METHOD.md's numbers (thesis eq. 6.25, 5.24–5.25, 3.32, table 5.4)."""

import math

import pytest
from scipy import integrate

from textbcv.stats.correlation import (
    C_hat,
    C_m,
    arrci,
    arrv,
    choose_max_m,
    count_factor,
    f_hat,
    f_m,
    thesis_count_factor,
    v_m,
)

C_TABLE = {2: 0.5053, 3: 0.3688, 4: 0.2907, 5: 0.2401, 6: 0.2045, 7: 0.1782, 8: 0.1578, 9: 0.1417, 10: 0.1285}


@pytest.mark.parametrize("m,expected", sorted(C_TABLE.items()))
def test_c_m_table(m, expected):
    assert round(thesis_count_factor(m), 4) == expected


@pytest.mark.parametrize("m", [1, 2, 3, 7, 15])
def test_c_m_is_the_average_it_claims(m):
    lo2 = 0.25 if m > 1 else 0.0  # for m = 1 ρ2 has no weight; any range gives the same average
    val, _ = integrate.dblquad(lambda r2, r1: 1 / (1 + r1 + (2 * m - 2) * r2), 0, 0.5, lo2, 0.5)
    assert thesis_count_factor(m) == pytest.approx(val / (0.5 * (0.5 - lo2)), rel=1e-10)


def test_variants():
    assert count_factor(3, "independent") == 1.0
    assert count_factor(3, "averaged-counts") == pytest.approx(1 / 6)
    assert count_factor(3, "rho", rho1=1, rho2=1) == pytest.approx(1 / 6)
    assert count_factor(3, "rho", rho1=0.2, rho2=0.3) == pytest.approx(1 / 2.4)
    with pytest.raises(ValueError):
        count_factor(3, "rho")
    with pytest.raises(ValueError):
        count_factor(0)
    with pytest.raises(ValueError):
        count_factor(3, "nonsense")


def test_C_m_f_m_check_values():
    assert round(C_m(3, 0.2, 0.3), 4) == 0.8165
    assert round(f_m(3, 0.2, 0.3), 4) == 4.9091
    # Ĉ_m is C_m at ρ1 = ρ2 = ½; f_m = 2m − 1 when ρ1 = ρ2; Var2 expectation identity (5.21)
    for m in (2, 3, 5, 10):
        assert C_hat(m) == pytest.approx(C_m(m, 0.5, 0.5))
        assert f_m(m, 0.3, 0.3) == pytest.approx(f_hat(m))
        r1, r2 = 0.1, 0.4
        g = 1 + r1 + 2 * (m - 1) * r2
        assert v_m(m, r1, r2) * f_m(m, r1, r2) == pytest.approx(2 * m - g)  # E[2m Var2/σ²] = 2m − g


ARRV = {2: 0.1554, 3: 0.0984, 4: 0.0689, 5: 0.0515, 6: 0.0402, 7: 0.0324, 11: 0.0168, 15: 0.0105, 16: 0.0095}


@pytest.mark.parametrize("m,expected", sorted(ARRV.items()))
def test_arrv(m, expected):
    assert round(arrv(m), 4) == expected


def test_arrci_thesis_table_and_M():
    # table 5.4, α = 0.05 column (the thesis's computation, with its typo)
    table = {4: 0.0701, 5: 0.0467, 6: 0.0336, 7: 0.0254, 8: 0.0199, 12: 0.0096}
    for m, v in table.items():
        assert round(arrci(m, 0.05, corrected=False), 4) == v
    assert [choose_max_m(0.05, g, corrected=False) for g in (0.1, 0.05, 0.01)] == [4, 5, 12]
    assert [choose_max_m(0.05, g) for g in (0.1, 0.05, 0.01)] == [3, 4, 9]
    assert thesis_count_factor(1) == pytest.approx(2 * math.log(1.5))
