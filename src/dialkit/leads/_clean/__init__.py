"""Each row judged as the service would (:mod:`._judge`, verdicts, duplicates, hints),
whichever way the clean runs: the entry points and their options (:mod:`._entry`,
:mod:`._options`), in memory or a chunk at a time (:mod:`._stream`, :mod:`._chunked`),
and what a clean answers and writes (:mod:`._result`, :mod:`._sinks`).
"""
