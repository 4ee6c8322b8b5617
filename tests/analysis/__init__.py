"""Tests of scatlab.analysis."""
