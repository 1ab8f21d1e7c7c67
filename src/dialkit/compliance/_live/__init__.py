"""Compliance as the calls happen: the audit's findings kept as each call's events land."""
