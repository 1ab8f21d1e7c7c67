"""The audit on Dask: the pandas path's plans in parts (``_parts``), run on a
frame's partitions (``_audit``)."""
