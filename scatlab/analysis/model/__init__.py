"""The opponent model: how the unseen hands are weighed (uniform, the chain of turns, the
log filter), the standing and knock valuation it reads non-knocks with, and the knock risk."""
