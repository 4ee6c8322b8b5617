"""Tests of scatlab.players."""
