"""What shows the measures: a plot of each table (:mod:`._plots`) and the notebook explorer
that draws them with widgets to narrow them (:mod:`._explore`).
"""
