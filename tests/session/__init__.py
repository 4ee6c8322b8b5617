"""Tests of scatlab.session."""
