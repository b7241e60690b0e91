"""The tracker's parts: reading observations, agreeing on a stable view, predicting tables.

:mod:`companion.tracker` puts them together; each module here has one job:

- :mod:`~companion.tracking.frame`: one ``azul-observation/1`` checked and read into numbers;
- :mod:`~companion.tracking.layout`: which board is which seat, which disc which factory;
- :mod:`~companion.tracking.consensus`: the view several frames agree on;
- :mod:`~companion.tracking.tables`: what the table should look like after a move, and
  how far a view is from it;
- :mod:`~companion.tracking.hypotheses`: physical mistakes and unseen turns;
- :mod:`~companion.tracking.evidence`: what each factory showed over the round, state by state;
- :mod:`~companion.tracking.refills`: the possible draw the evidence supports best;
- :mod:`~companion.tracking.revision`: a refill corrected from what the takes moved.
"""
