"""Tests of scatlab.cards."""
