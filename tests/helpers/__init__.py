"""What the tests share, in one place (no test file imports another):

- :mod:`helpers.brute_force`: an independent hand value, showdown key and opponent policy;
- :mod:`helpers.hidden_cards`: what a seat may see, and which cards a text names;
- :mod:`helpers.fuzzing`: odd inputs and the fuzz counts the suite reports;
- :mod:`helpers.servers`: free ports, waiting for and stopping servers, a PostgreSQL server;
- :mod:`helpers.layers`: the package's layers.

``tests/`` is on ``sys.path`` (pytest puts the root conftest's folder there), so a test
anywhere under it imports ``from helpers.servers import free_port``.
"""
