"""The decision engine: one ranking of the moves (:mod:`.ranking`, whose module doc states
the rule), built from the engine's settings and the position (:mod:`.position`), the one
scale of the chance of winning (:mod:`.scale`), ending the hand (:mod:`.ending`) and the
decision (:mod:`.decision`: every legal move weighed, the first move and its reason); lesson
3's knock line (:mod:`.knock_line`); the advice as data (:mod:`!advice`). The expert plays
its first move."""
