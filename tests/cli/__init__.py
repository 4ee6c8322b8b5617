"""Tests of scatlab.cli."""
