"""The explanations: one analysis as data, text and a sympy derivation, and the game review."""
