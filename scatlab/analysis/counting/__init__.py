"""Exact counting: the tables of every hand, the kernels, the one-turn odds, the horizon,
the store of built tables, and what a player has seen (:class:`~scatlab.analysis.Knowledge`)."""
