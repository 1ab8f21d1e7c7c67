"""The audit on Dask (issue 63): the pandas path's plans in parts (``_parts``), run on a
frame's partitions (``_audit``)."""
