"""What an audit hands on: the report itself (``_audit_report``), its evidence
as a workbook and one HTML page (``_evidence``), its pictures (``_plots``) and its plain
text (``_text``)."""
