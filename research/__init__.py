"""Studies of scatlab, kept out of the product: each folder answers one question about the
package by playing or analysing many games, and imports scatlab as any user would. Nothing
under ``scatlab/`` imports ``research`` (tests/test_layers.py checks it). See README.md."""
