"""Textbook tests against scipy (1e-9) and mlxtend (same folds, same seeds)."""

import math

import numpy as np
import pytest
from scipy import stats

from textbcv.stats import classic


def test_against_scipy_distributions():
    rng = np.random.default_rng(0)
    d = rng.normal(0.01, 0.02, (5, 2))
    r = classic.paired_t_5x2cv(d)
    s2 = ((d - d.mean(1, keepdims=True)) ** 2).sum(1)
    t = d[0, 0] / math.sqrt(s2.mean())
    assert r["statistic"] == pytest.approx(t, abs=1e-12)
    assert r["p_value"] == pytest.approx(2 * stats.t.sf(abs(t), 5), abs=1e-12)
    f = classic.combined_f_5x2cv(d)
    assert f["p_value"] == pytest.approx(stats.f.sf((d**2).sum() / (2 * s2.sum()), 10, 5), abs=1e-12)
    b = classic.blocked_t_3x2(d[:3])
    v = d[:3].ravel()
    assert b["statistic"] == pytest.approx(stats.ttest_1samp(v, 0).statistic / math.sqrt(5), abs=1e-9)
    one = classic.t_test(v, 0.0)
    assert one["statistic"] == pytest.approx(stats.ttest_1samp(v, 0).statistic, abs=1e-9)
    a_vals, b_vals = rng.random(10), rng.random(10)
    assert classic.paired_t_test(a_vals, b_vals)["p_value"] == pytest.approx(stats.ttest_rel(b_vals, a_vals).pvalue, abs=1e-9)
    assert classic.wilcoxon(a_vals, b_vals)["p_value"] == pytest.approx(stats.wilcoxon(b_vals - a_vals).pvalue, abs=1e-9)
    m = classic.mcnemar([[10, 25], [12, 40]], corrected=True)
    assert m["p_value"] == pytest.approx(stats.chi2.sf((abs(25 - 12) - 1) ** 2 / 37, 1), abs=1e-12)
    e = classic.mcnemar([[10, 25], [12, 40]], exact=True)
    assert e["p_value"] == pytest.approx(stats.binomtest(25, 37, 0.5).pvalue, abs=1e-12)
    x = rng.random((8, 4))
    fr = classic.friedman(x)
    sc = stats.friedmanchisquare(*x.T)
    assert fr["chi2"] == pytest.approx(sc.statistic, abs=1e-9)
    assert fr["chi2_uncorrected"] == pytest.approx(sc.statistic, abs=1e-9)  # no ties in continuous data
    assert fr["chi2_p_value"] == pytest.approx(sc.pvalue, abs=1e-9)


def test_corrected_resampled_t_formula():
    d = np.array([0.01, 0.02, 0.015, 0.0, 0.01, 0.03])
    r = classic.corrected_resampled_t(d, n_train=900, n_test=100)
    assert r["statistic"] == pytest.approx(d.mean() / math.sqrt((1 / 6 + 100 / 900) * d.var(ddof=1)))
    assert r["df"] == 5


def test_friedman_nemenyi_watermelon_example():
    # 《机器学习》 table 2.5: F = 24.429, CD = 1.657 with q_0.05 = 2.344 for k = 3
    r = classic.friedman([[3, 2, 1], [3, 1.5, 1.5], [3, 2, 1], [3, 2, 1]])
    assert r["average_ranks"] == [1.0, 2.125, 2.875]
    assert round(r["F"], 3) == 24.429
    assert round(r["nemenyi_cd"], 3) == 1.657
    # Demšar (2006) table 5: q_0.05 = 2.569 (k = 4), 2.728 (k = 5); Bonferroni–Dunn q_0.05 = 2.394 (k = 4)
    assert classic.nemenyi_cd(4, 6) / math.sqrt(4 * 5 / 36) == pytest.approx(2.569, abs=1e-3)
    assert classic.nemenyi_cd(5, 6) / math.sqrt(5 * 6 / 36) == pytest.approx(2.728, abs=1e-3)
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
    assert r["statistic"] == pytest.approx(t, abs=1e-9)
    assert r["p_value"] == pytest.approx(p, abs=1e-9)
    f, pf = mlxtend.combined_ftest_5x2cv(estimator1=a, estimator2=b, X=X, y=y, random_seed=1)
    rf = classic.combined_f_5x2cv(d)
    assert rf["statistic"] == pytest.approx(f, abs=1e-9)
    assert rf["p_value"] == pytest.approx(pf, abs=1e-9)


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
        assert r["p_value"] == pytest.approx(p, abs=1e-9)
        if not exact:
            assert r["statistic"] == pytest.approx(chi2, abs=1e-9)
