"""Exact counting: the tables of every hand, their vectorized loops, the one-turn odds, the horizon,
the store of built tables, and what a player has seen (:class:`~scatlab.analysis.Knowledge`)."""
