"""Tests of scatlab.rules."""
