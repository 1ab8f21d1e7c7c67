"""Reading a lead file as text with its columns mapped to lead fields (:mod:`._lead_file`):
its encoding, delimiter and header line found, a workbook checked and read as Excel
shows it, a CSV read a chunk at a time (:mod:`._chunks`).
"""
