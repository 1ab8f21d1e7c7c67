"""Each row judged as the service would (:mod:`._judge`, :mod:`._verdicts`,
:mod:`._duplicates`, :mod:`._hints`), whichever way the clean runs: the entry points
(:mod:`._entry`) and their options (:mod:`._options`), in memory or a chunk at a time
(:mod:`._stream`, :mod:`._chunked`), and what a clean answers and writes (:mod:`._result`,
:mod:`._sinks`).
"""
