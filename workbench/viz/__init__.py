"""Pictures of any game: ``generic`` draws every layout a game declares (hex, square) with its glyphs.

- ``generic.board_svg(state)`` / ``generic.draw_board(state)`` (SVG, matplotlib), heat with a colour bar,
  ``generic.batch_rule_maps`` for simulation events.

A game's own pictures live in its package (TerraFeud's terrain, river, Orders, heatmaps and movement graphs:
``workbench.games.terrafeud.viz``); this package imports no game.
"""
