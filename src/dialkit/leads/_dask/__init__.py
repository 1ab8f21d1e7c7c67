"""Lead cleaning on Dask: a frame's partitions judged on the workers (:mod:`._clean`,
:mod:`._result`), or normalised there and judged on the client (:mod:`._client`).
"""
