"""How the chance of winning the game is estimated for every move (see README.md)."""
