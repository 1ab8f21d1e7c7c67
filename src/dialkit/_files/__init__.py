"""Files dialkit reads and writes, for every layer: outputs written whole or not
at all (``_outputs_written``) and what a killed write leaves (``_leftovers``), owner-only
folders and files (``_private``), limits checked before a parser sees a file
(``_file_limits``), files shipped in the package (``_packaged``), workbooks and CSV that
hold text as text (``_outputs``), and a user's text file read as it was saved, or refused
saying why (``_text``)."""
