"""Study commands: tournaments that ask a question of the agents or the rules, above simulate and balance.

``ladder`` (agents' Elo ratings with intervals), ``trace`` (does a verdict hold as an agent's budget
doubles), ``learn`` (evaluation weights fitted to a variant's self-play). Each plays its games through
``workbench.simulate`` and reads them with ``workbench.balance``; agents never import this package.
"""
