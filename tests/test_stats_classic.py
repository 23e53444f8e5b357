"""Textbook tests: each statistic against an independent reference (the published formula written here,
scipy, mlxtend), every input the old entry points misread (issue 18), and invariants on random input."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from textbcv.stats import classic

D5 = np.array([[0.02, 0.01], [0.015, 0.03], [0.0, 0.02], [0.01, 0.01], [0.025, 0.005]])


# ----------------------------------------------------------------------------- published formulas


def dietterich_t(p):
    """Dietterich (1998), eq. for the 5×2cv paired t: p_1^(1) / sqrt((1/5) Σ_i s_i²), 5 df."""
    s2 = [(p[i][0] - (p[i][0] + p[i][1]) / 2) ** 2 + (p[i][1] - (p[i][0] + p[i][1]) / 2) ** 2 for i in range(5)]
    return p[0][0] / math.sqrt(sum(s2) / 5), s2


def alpaydin_f(p):
    """Alpaydin (1999): F = Σ_i Σ_j (p_i^(j))² / (2 Σ_i s_i²) ~ F(10, 5)."""
    _, s2 = dietterich_t(p)
    return sum(p[i][j] ** 2 for i in range(5) for j in range(2)) / (2 * sum(s2))


def nadeau_bengio_t(d, ratio):
    """Nadeau & Bengio (2003): mean / sqrt((1/J + n_test/n_train) σ̂²), σ̂² the unbiased sample variance."""
    J = len(d)
    mean = sum(d) / J
    var = sum((x - mean) ** 2 for x in d) / (J - 1)
    return mean / math.sqrt((1 / J + ratio) * var)


def test_dietterich_alpaydin_yildiz_formulas():
    rng = np.random.default_rng(0)
    for _ in range(20):
        p = rng.normal(0.01, 0.02, (5, 2))
        t, s2 = dietterich_t(p.tolist())
        r = classic.paired_t_5x2cv(p)
        assert r.statistic == pytest.approx(t, rel=1e-12) and r.df == 5
        assert r.p_value == pytest.approx(2 * stats.t.sf(abs(t), 5), rel=1e-12)
        f = classic.combined_f_5x2cv(p)
        assert f.statistic == pytest.approx(alpaydin_f(p.tolist()), rel=1e-12) and f.df == (10, 5)
        assert f.p_value == pytest.approx(stats.f.sf(alpaydin_f(p.tolist()), 10, 5), rel=1e-12)
        # Yildiz (2013): mean of the 10 differences over sqrt(Σ s_i² / 50) (σ̂² = Σ s_i²/5, Var(mean) = σ²/10)
        ty = p.mean() / math.sqrt(sum(s2) / 5 / 10)
        y = classic.combined_t_5x2cv(p)
        assert y.statistic == pytest.approx(ty, rel=1e-12)
        assert y.p_value == pytest.approx(2 * stats.t.sf(abs(ty), 5), rel=1e-12)


def test_blocked_3x2_and_nadeau_bengio_formulas():
    rng = np.random.default_rng(1)
    d = rng.normal(0.01, 0.02, (3, 2))
    v = d.ravel().tolist()
    mean = sum(v) / 6
    var2 = sum((x - mean) ** 2 for x in v) / 6          # Var2, 1/(2m) (Wang et al. 2014; METHOD.md §4)
    b = classic.blocked_t_3x2(d)
    assert b.statistic == pytest.approx(mean / math.sqrt(var2), rel=1e-12) and b.df == 5
    assert b.statistic == pytest.approx(stats.ttest_1samp(v, 0).statistic / math.sqrt(5), rel=1e-9)
    x = [0.01, 0.02, 0.015, 0.0, 0.01, 0.03]
    r = classic.corrected_resampled_t(x, n_train=900, n_test=100)
    assert r.statistic == pytest.approx(nadeau_bengio_t(x, 100 / 900), rel=1e-12) and r.df == 5
    assert r.p_value == pytest.approx(2 * stats.t.sf(abs(nadeau_bengio_t(x, 100 / 900)), 5), rel=1e-12)


def test_against_scipy():
    rng = np.random.default_rng(0)
    v = rng.normal(0.01, 0.02, 6)
    one = classic.t_test(v, 0.0)
    assert one.statistic == pytest.approx(stats.ttest_1samp(v, 0).statistic, abs=1e-9)
    a_vals, b_vals = rng.random(10), rng.random(10)
    want = stats.ttest_rel(b_vals, a_vals).pvalue
    assert classic.paired_t_test(a_vals, b_vals).p_value == pytest.approx(want, abs=1e-12)
    w = classic.wilcoxon(a_vals, b_vals)
    assert w.p_value == pytest.approx(stats.wilcoxon(b_vals - a_vals).pvalue, abs=1e-12) and "exact" in w.form
    # ties among |d| (n ≤ 13): the exact permutation distribution, as scipy's default chooses it
    a, b = [0.8, 0.7, 0.9, 0.6, 0.75, 0.85, 0.5], [0.82, 0.72, 0.89, 0.65, 0.8, 0.9, 0.55]
    w = classic.wilcoxon(a, b)
    assert "2^7 sign assignments" in w.form
    assert w.p_value == pytest.approx(stats.wilcoxon(np.subtract(b, a)).pvalue, abs=1e-12)
    # many differences: the normal approximation, as scipy's
    a, b = rng.random(80), rng.random(80)
    w = classic.wilcoxon(a, b)
    assert "normal approximation" in w.form
    assert w.p_value == pytest.approx(stats.wilcoxon(b - a, method="asymptotic").pvalue, abs=1e-12)
    m = classic.mcnemar([[10, 25], [12, 40]], corrected=True)
    assert m.p_value == pytest.approx(stats.chi2.sf((abs(25 - 12) - 1) ** 2 / 37, 1), abs=1e-12)
    e = classic.mcnemar([[10, 25], [12, 40]], exact=True)
    assert e.p_value == pytest.approx(stats.binomtest(25, 37, 0.5).pvalue, abs=1e-12)
    # the exact two-sided McNemar p-value written out: 2 Σ_{i ≤ min(b,c)} C(b+c, i) / 2^(b+c)
    assert e.p_value == pytest.approx(min(1.0, 2 * sum(math.comb(37, i) for i in range(13)) / 2 ** 37), rel=1e-12)
    x = rng.random((8, 4))
    fr = classic.friedman(x)
    sc = stats.friedmanchisquare(*x.T)
    assert fr.chi2.statistic == pytest.approx(sc.statistic, abs=1e-9)
    assert fr.chi2_uncorrected == pytest.approx(sc.statistic, abs=1e-9)  # no ties in continuous data
    assert fr.chi2.p_value == pytest.approx(sc.pvalue, abs=1e-9)
    # Iman–Davenport (Demšar 2006 eq. 2) from the average ranks written out
    ranks = np.array([stats.rankdata(-row) for row in x])
    R = ranks.mean(axis=0)
    chi2 = 12 * 8 / (4 * 5) * (np.sum(R ** 2) - 4 * 25 / 4)
    f = 7 * chi2 / (8 * 3 - chi2)
    assert fr.iman_davenport.statistic == pytest.approx(f, rel=1e-12)
    assert fr.iman_davenport.p_value == pytest.approx(stats.f.sf(f, 3, 21), rel=1e-12)


def test_friedman_nemenyi_watermelon_example():
    # 《机器学习》 table 2.5: F = 24.429, CD = 1.657 with q_0.05 = 2.344 for k = 3
    r = classic.friedman([[3, 2, 1], [3, 1.5, 1.5], [3, 2, 1], [3, 2, 1]])
    assert r.average_ranks == (1.0, 2.125, 2.875)
    assert round(r.iman_davenport.statistic, 3) == 24.429
    assert round(r.nemenyi_cd, 3) == 1.657
    assert r.differing_pairs() == [(0, 2)]
    # Demšar (2006) table 5: q_0.05 = 2.569 (k = 4), 2.728 (k = 5); Bonferroni–Dunn q_0.05 = 2.394 (k = 4)
    assert classic.nemenyi_cd(4, 6) / math.sqrt(4 * 5 / 36) == pytest.approx(2.569, abs=1e-3)
    assert classic.nemenyi_cd(5, 6) / math.sqrt(5 * 6 / 36) == pytest.approx(2.728, abs=1e-3)
    assert classic.nemenyi_cd(4, 6, alpha=0.10) / math.sqrt(4 * 5 / 36) == pytest.approx(2.291, abs=1e-3)
    assert classic.bonferroni_dunn_cd(4, 6) / math.sqrt(4 * 5 / 36) == pytest.approx(2.394, abs=1e-3)


def _five_by_two_folds(seed=1):
    """Per-fold accuracy differences exactly as mlxtend's 5x2cv functions compute them (same seeds)."""
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_classification(n_samples=300, n_features=8, random_state=0)
    a = LogisticRegression(max_iter=1000)
    b = DecisionTreeClassifier(random_state=0, max_depth=3)
    rng = np.random.RandomState(seed)
    d = []
    for _ in range(5):
        randint = rng.randint(low=0, high=32767)
        X1, X2, y1, y2 = train_test_split(X, y, test_size=0.5, random_state=randint)
        row = []
        for Xtr, Xte, ytr, yte in ((X1, X2, y1, y2), (X2, X1, y2, y1)):
            acc_a = a.fit(Xtr, ytr).score(Xte, yte)
            acc_b = b.fit(Xtr, ytr).score(Xte, yte)
            row.append(acc_a - acc_b)
        d.append(row)
    return X, y, a, b, np.array(d)


def test_against_mlxtend_5x2cv():
    mlxtend = pytest.importorskip("mlxtend.evaluate")
    X, y, a, b, d = _five_by_two_folds(seed=1)
    t, p = mlxtend.paired_ttest_5x2cv(estimator1=a, estimator2=b, X=X, y=y, random_seed=1)
    r = classic.paired_t_5x2cv(d)
    assert r.statistic == pytest.approx(t, abs=1e-9)
    assert r.p_value == pytest.approx(p, abs=1e-9)
    f, pf = mlxtend.combined_ftest_5x2cv(estimator1=a, estimator2=b, X=X, y=y, random_seed=1)
    rf = classic.combined_f_5x2cv(d)
    assert rf.statistic == pytest.approx(f, abs=1e-9)
    assert rf.p_value == pytest.approx(pf, abs=1e-9)


def test_against_mlxtend_mcnemar():
    ev = pytest.importorskip("mlxtend.evaluate")
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB

    X, y = make_classification(n_samples=400, n_features=6, random_state=3)
    pa = LogisticRegression().fit(X[:200], y[:200]).predict(X[200:])
    pb = GaussianNB().fit(X[:200], y[:200]).predict(X[200:])
    yt = y[200:]
    ours = classic.mcnemar_table(pa == yt, pb == yt)
    theirs = ev.mcnemar_table(y_target=yt, y_model1=pa, y_model2=pb)
    assert ours.tolist() == theirs.tolist()
    for corrected, exact in ((True, False), (False, False), (True, True)):
        chi2, p = ev.mcnemar(ary=theirs, corrected=corrected, exact=exact)
        r = classic.mcnemar(ours, exact=exact, corrected=corrected)
        assert r.p_value == pytest.approx(p, abs=1e-9)
        if not exact:
            assert r.statistic == pytest.approx(chi2, abs=1e-9)


def test_mx2_tests_choose_by_m():
    rng = np.random.default_rng(5)
    a5, b5 = rng.uniform(0.8, 0.9, 10), rng.uniform(0.8, 0.9, 10)
    r = classic.mx2_tests(a5, b5)
    d = (b5 - a5).reshape(5, 2)
    assert [t.test for t in r.tests] == ["paired_t_5x2cv", "combined_f_5x2cv", "combined_t_5x2cv",
                                         "corrected_resampled_t", "wilcoxon"]
    assert r.tests[0].statistic == pytest.approx(dietterich_t(d.tolist())[0], rel=1e-12)
    assert r.tests[1].statistic == pytest.approx(alpaydin_f(d.tolist()), rel=1e-12)
    assert r.tests[3].statistic == pytest.approx(nadeau_bengio_t((b5 - a5).tolist(), 1.0), rel=1e-12)
    assert [n for n, _ in r.not_applicable] == ["blocked 3×2 t (Wang et al. 2014)"]
    r4 = classic.mx2_tests(a5[:8], b5[:8])
    assert [t.test for t in r4.tests] == ["corrected_resampled_t", "wilcoxon"]
    assert len(r4.not_applicable) == 4 and all("this input has m = 4" in why for _, why in r4.not_applicable)
    assert r4.to_dict()["not_applicable"][0]["reason"] == "needs m = 5 (the 5×2cv design); this input has m = 4"
    with pytest.raises(ValueError, match="values_a holds 7 values; an m×2 design gives an even number"):
        classic.mx2_tests(a5[:7], b5[:7])


# ----------------------------------------------------------------------------- misread inputs (issue 18)


def test_friedman_nan_is_refused_not_significant():
    x = np.array([[0.8, 0.7, 0.9], [0.81, np.nan, 0.88], [0.79, 0.72, 0.91]])
    with pytest.raises(ValueError, match=r"values\[1, 1\] is nan; every value must be a finite number"):
        classic.friedman(x)


@pytest.mark.parametrize("table,message", [
    ([[10, -3], [5, 2]], r"table\[0, 1\] is -3; McNemar's table holds counts, non-negative integers"),
    ([[10, 2.7], [5, 2]], r"table\[0, 1\] is 2.7; McNemar's table holds counts"),
    ([[10, 3], [5.5, 2]], r"table\[1, 0\] is 5.5"),
    ([[1, 2, 3], [4, 5, 6], [7, 8, 9]], r"table must be a 2×2 table of counts .* got shape \(3, 3\)"),
    ([3, 5], r"got shape \(2,\)"),
    ([[10, np.inf], [5, 2]], r"table\[0, 1\] is inf; every value must be a finite number"),
    ([[True, False], [False, True]], "table must be numbers, got booleans"),
])
def test_mcnemar_refuses_what_is_not_a_count_table(table, message):
    for exact in (False, True):
        with pytest.raises(ValueError, match=message):
            classic.mcnemar(table, exact=exact)


PAIRED = [
    ("paired_t_5x2cv", lambda d: classic.paired_t_5x2cv(d)),
    ("combined_f_5x2cv", lambda d: classic.combined_f_5x2cv(d)),
    ("combined_t_5x2cv", lambda d: classic.combined_t_5x2cv(d)),
    ("blocked_t_3x2", lambda d: classic.blocked_t_3x2(d)),
    ("corrected_resampled_t", lambda d: classic.corrected_resampled_t(d, 1, 1)),
    ("wilcoxon", lambda d: classic.wilcoxon(np.zeros(d.size), d.ravel())),
    ("paired_t", lambda d: classic.paired_t_test(np.zeros(d.size), d.ravel())),
    ("t", lambda d: classic.t_test(d.ravel())),
]


@pytest.mark.parametrize("name,run", PAIRED, ids=[p[0] for p in PAIRED])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_paired_tests_refuse_nan_and_inf(name, run, bad):
    d = D5.copy()
    d[2, 1] = bad
    with pytest.raises(ValueError, match=rf"\[(2, 1|5)\] is {bad}; every value must be a finite number"):
        run(d)


@pytest.mark.parametrize("name,run", PAIRED, ids=[p[0] for p in PAIRED])
def test_constant_differences_are_undefined_not_huge(name, run):
    d = np.full((5, 2), 0.1)
    # the plain formula on these floats gives a 'statistic' of about 10^16: the case is real
    naive = d.ravel().mean() / math.sqrt(np.mean((d.ravel() - d.ravel().mean()) ** 2) or 1e-300)
    assert abs(naive) > 1e12
    r = run(d)
    if name == "wilcoxon":  # a rank test is defined: all ten differences favour B, p = 2 / 2^10
        assert r.statistic == 0.0 and r.p_value == pytest.approx(2 / 2 ** 10, rel=1e-12)
    else:
        assert r.statistic is None and r.p_value is None and not r.defined
        assert r.undefined in ("zero variance: every per-fold difference equals 0.1",
                               "zero variance: every estimate equals 0.1",
                               "zero variance: in every split both folds give the same difference, so Σ s_i² = 0")
        assert r.to_dict()["statistic"] is None
    z = run(np.zeros((5, 2)))
    assert z.statistic is None and z.p_value is None
    assert z.undefined.startswith("identical systems" if name != "t" else "zero variance")


def test_zero_within_split_variance_is_undefined():
    d = np.array([[0.01, 0.01], [0.02, 0.02], [0.0, 0.0], [0.03, 0.03], [0.01, 0.01]])
    for f in (classic.paired_t_5x2cv, classic.combined_f_5x2cv, classic.combined_t_5x2cv):
        r = f(d)
        assert r.undefined == "zero variance: in every split both folds give the same difference, so Σ s_i² = 0"
        assert r.p_value is None
    # the tests that use the spread across splits are defined
    assert classic.blocked_t_3x2(d[:3]).defined and classic.corrected_resampled_t(d, 1, 1).defined


@pytest.mark.parametrize("n_train,n_test,message", [
    (0, 10, "n_train must be a positive number .* got 0"),
    (90, -10, "n_test must be a positive number .* got -10"),
    (float("nan"), 10, "n_train must be a positive number .* got nan"),
    (90, 0, "n_test must be a positive number .* got 0"),
    (True, 10, "n_train must be a positive number .* got True"),
])
def test_corrected_t_refuses_impossible_sizes(n_train, n_test, message):
    with pytest.raises(ValueError, match=message):
        classic.corrected_resampled_t([0.01, 0.02, 0.0], n_train, n_test)


@pytest.mark.parametrize("alpha", [1.5, 0, 1, -0.1, float("nan"), "0.05"])
def test_impossible_alpha(alpha):
    with pytest.raises(ValueError, match="alpha must lie strictly between 0 and 1, got"):
        classic.nemenyi_cd(3, 4, alpha=alpha)
    with pytest.raises(ValueError, match="alpha must lie strictly between 0 and 1"):
        classic.bonferroni_dunn_cd(3, 4, alpha=alpha)
    with pytest.raises(ValueError, match="alpha must lie strictly between 0 and 1"):
        classic.friedman(np.random.default_rng(0).random((4, 3)), alpha=alpha)


def test_wrong_shapes_say_what_is_wrong():
    with pytest.raises(ValueError, match=r"values must be a 2-D array, one row per data set .* got shape \(5,\)"):
        classic.friedman([0.8, 0.7, 0.9, 0.6, 0.5])
    with pytest.raises(ValueError,
                       match=r"Friedman needs N >= 2 data sets \(rows\) and k >= 3 systems \(columns\), got N=4, k=2"):
        classic.friedman(np.ones((4, 2)))
    with pytest.raises(ValueError, match="values_a has 6 values and values_b has 5; the test pairs them"):
        classic.wilcoxon([0.1] * 6, [0.2] * 5)
    with pytest.raises(ValueError, match=r"differences must have shape \(m, 2\).*got shape \(10,\)"):
        classic.paired_t_5x2cv(D5.ravel())
    with pytest.raises(ValueError, match="rows have different lengths"):
        classic.combined_f_5x2cv([[0.1, 0.2], [0.3]])
    with pytest.raises(ValueError, match=r"k is 1; a critical difference compares at least 2 systems"):
        classic.nemenyi_cd(1, 4)
    with pytest.raises(ValueError, match=r"N is 2.5; it must be a non-negative integer"):
        classic.nemenyi_cd(3, 2.5)
    with pytest.raises(ValueError, match="the test needs at least 2 repetitions"):
        classic.corrected_resampled_t([0.1], 1, 1)
    with pytest.raises(ValueError, match="correct_a must hold right/wrong decisions"):
        classic.mcnemar_table([0, 2, 1], [1, 1, 1])
    with pytest.raises(ValueError, match="correct_a has 3 decisions and correct_b has 2"):
        classic.mcnemar_table([0, 1, 1], [1, 1])
    with pytest.raises(ValueError, match="errors is 12, more than n = 10"):
        classic.binomial_test(12, 10, 0.3)


def test_identical_systems_are_undefined():
    m = classic.mcnemar([[40, 0], [0, 7]])
    assert m.undefined == "identical decisions: the systems disagree on no unit (b = c = 0)" and m.p_value is None
    assert classic.mcnemar([[40, 0], [0, 7]], exact=True).p_value is None
    w = classic.wilcoxon([0.8, 0.7, 0.9], [0.8, 0.7, 0.9])
    assert w.undefined == "identical systems: every paired difference is 0"
    fr = classic.friedman(np.tile([[0.8], [0.7], [0.9], [0.85]], (1, 3)))
    assert (fr.chi2.undefined == fr.iman_davenport.undefined
            == "identical systems: every data set ranks all systems equal")


def test_friedman_perfect_agreement_has_chi2_but_no_f():
    x = np.array([[0.9, 0.8, 0.7], [0.91, 0.81, 0.71], [0.92, 0.82, 0.72], [0.93, 0.83, 0.7]])
    r = classic.friedman(x)
    assert r.chi2.statistic == pytest.approx(8.0) and r.chi2.p_value == pytest.approx(stats.chi2.sf(8.0, 2))
    assert r.iman_davenport.statistic is None and "N(k−1) − χ² = 0" in r.iman_davenport.undefined


# ----------------------------------------------------------------------------- invariants


finite = st.floats(-1, 1, allow_nan=False, allow_infinity=False)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(finite, finite), min_size=1, max_size=8),
       st.sampled_from([0.0, 1e-3, 0.25]))
def test_every_result_is_a_probability_or_undefined(rows, rounding):
    d = np.array(rows)
    if rounding:
        d = np.round(d / rounding) * rounding  # ties and repeated values
    results = [classic.paired_t_5x2cv(d), classic.combined_f_5x2cv(d), classic.combined_t_5x2cv(d),
               classic.blocked_t_3x2(d), classic.wilcoxon(np.zeros(d.size), d.ravel())]
    if d.size >= 2:
        results.append(classic.corrected_resampled_t(d, 3, 1))
    for r in results:
        if r.defined:
            assert math.isfinite(r.statistic) and 0 <= r.p_value <= 1
            # a spread at rounding level would give 1e29 and more; one at the 1e-12 floor of _no_spread 1e24
            assert abs(r.statistic) < 1e25, (r.test, d)
        else:
            assert r.statistic is None and r.p_value is None and r.undefined


@pytest.mark.parametrize("d", [
    [0.1, 0.1, 0.2, -0.1, 0.3, 0.2, 0.2, 0.1, -0.2, 0.4],
    [0.05, -0.05, 0.05, 0.05, -0.05, 0.05],
    [0.2] * 13,
    [-0.3, 0.1, 0.1, 0.2, 0.2, 0.5, -0.5],
])
def test_wilcoxon_with_ties_equals_scipy_permutation(d):
    r = classic.wilcoxon(np.zeros(len(d)), d)
    ref = stats.wilcoxon(d, method=stats.PermutationMethod(n_resamples=2 ** len(d)))
    assert r.statistic == ref.statistic and r.p_value == pytest.approx(ref.pvalue, abs=1e-12)
