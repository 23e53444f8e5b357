"""Statistics of m×2 BCV results: posteriors, Bayes test, sequential t-test, textbook tests.

Imports only numpy and scipy; takes counts or per-fold metric values.
"""
