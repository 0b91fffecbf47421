"""Board-game Workbench: rules engines, scenarios, pictures, simulation, balance reports and tune.

Importing the package loads no game: each game's package wires its own parts when it is first used
(``workbench.games.get(name)``), and ``workbench.core`` is the protocol they share.
"""

__version__ = "0.2.0"
