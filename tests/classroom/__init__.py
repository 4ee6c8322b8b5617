"""Tests of scatlab.classroom."""
