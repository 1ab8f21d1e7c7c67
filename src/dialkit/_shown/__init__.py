"""How results show to a person, for every layer: tables on a page
(``_pages``), the progress of long work as a bar or as log lines (``_progress``,
``_progress_lines``, ``_logged``), counts in words (``_words``), and phone numbers masked
in files and log records (``_masked``)."""
