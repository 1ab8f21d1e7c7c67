"""Work spread over the machine, for every layer: two parts of one computation
on two cores (``_threads``), and functions over frames as plans that run whole on pandas
or partition by partition on Dask (``_partitions``, ``_partitions_dask``)."""
