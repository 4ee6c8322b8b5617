"""Tests of scatlab.app."""
