"""The decision engine: one ranking of the moves (:mod:`.ranking`), the advice as data
(:mod:`!advice`). The expert plays its first move."""
