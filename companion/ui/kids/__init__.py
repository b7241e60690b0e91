"""The Azul Kids display: screens a child needs no reading for, and the Kids demo.

Modules: ``draw`` (tiles, fields, bowls, animals, stars as shapes), ``view`` (what is
shown, built off the render loop), ``screens`` (live table, prompt, warning,
celebrations), ``cards`` (the question's picture cards), ``entry`` ("none of these":
every legal event), ``app`` (the Kids screens as the app brings them up), ``settings``
(a Kids game as chosen: side, players, whose boards), ``demo`` (bots on a simulated Kids
table read back by the Kids tracker, kept in a store with ``--state-dir``; its reader is
also the one `azul-companion run` uses at a real table).
"""
