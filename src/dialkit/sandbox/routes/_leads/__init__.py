"""Leads: list, read, history, import, single add and update (:mod:`._leads`), and the
per-lead rules import and single add judge each lead by (:mod:`._lead_rules`)."""
