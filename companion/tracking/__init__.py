"""The tracker's parts: reading observations, agreeing on a stable view, predicting tables.

:mod:`companion.tracker` puts them together; each module here has one job:

- :mod:`~companion.tracking.frame`: one ``azul-observation/1`` checked and read into numbers;
- :mod:`~companion.tracking.layout`: which board is which seat, which disc which factory;
- :mod:`~companion.tracking.consensus`: the view several frames agree on;
- :mod:`~companion.tracking.tables`: what the table should look like after a move, and
  how far a view is from it.
"""
