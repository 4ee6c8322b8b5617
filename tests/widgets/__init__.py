"""Tests of scatlab.widgets."""
