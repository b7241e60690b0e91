"""The Azul Kids display: screens a child needs no reading for, and the Kids demo.

Modules: ``draw`` (tiles, fields, bowls, animals, stars as shapes), ``view`` (what is
shown, built off the render loop), ``screens`` (live table, prompt, warning,
celebrations), ``cards`` (the question's picture cards), ``entry`` ("none of these":
every legal event), ``app`` (the screen stack for a Kids table), ``demo`` (bots on a
simulated Kids table read back by the Kids tracker, kept in a store with ``--state-dir``).
"""
