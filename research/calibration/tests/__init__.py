"""The calibration study's tests (collected by ``make test``: ``research`` is in pytest's
testpaths)."""
