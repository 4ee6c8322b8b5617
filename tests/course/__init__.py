"""Tests of scatlab.course."""
